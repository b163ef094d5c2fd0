import { Msg, type CallDef, type Envelope, type ReqOf, type ResOf } from '@studio/contract';

/** A failed call: the server's (or the network's) message and code. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Toast = (msg: string) => void;
let errorToast: Toast = (msg) => console.error(msg);

/** The app shell installs antd's message API here so the helper can show toasts. */
export function setErrorToast(fn: Toast): void {
  errorToast = fn;
}

export interface CallOptions {
  /** Do not show the error toast (the caller shows or ignores the failure). */
  silent?: boolean;
  /** Do not send the browser to /login on 401. */
  no401Redirect?: boolean;
  signal?: AbortSignal;
}

const LOGIN_NOTICE = 'loginNotice';

/**
 * Keeps why a call logged the browser out, when it says more than 请先登录 (a disabled account,
 * 该账号已停用，请联系店长), for the login page to show (takeLoginNotice).
 */
export function rememberLogout(e: unknown): void {
  if (e instanceof ApiError && e.status === 401 && e.message === Msg.staffDisabled) {
    sessionStorage.setItem(LOGIN_NOTICE, e.message);
  }
}

/** Why the browser was logged out, once (the login page shows it), or null. */
export function takeLoginNotice(): string | null {
  const notice = sessionStorage.getItem(LOGIN_NOTICE);
  sessionStorage.removeItem(LOGIN_NOTICE);
  return notice;
}

function goToLogin(): void {
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname === '/login') return;
  window.location.assign(`/login?redirect=${encodeURIComponent(here)}`);
}

/**
 * The one request helper: POSTs JSON with the session cookie to the call's path, answers `data`,
 * throws ApiError carrying the server's `msg` (shown as an error toast unless `silent`).
 */
export async function call<C extends CallDef>(def: C, payload: ReqOf<C>, opts: CallOptions = {}): Promise<ResOf<C>> {
  let res: Response;
  try {
    res = await fetch(def.path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload ?? {}),
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    const err = new ApiError('网络连接失败，请检查网络后重试', -1, 0);
    if (!opts.silent) errorToast(err.message);
    throw err;
  }
  let body: Envelope<ResOf<C>> | undefined;
  try {
    body = (await res.json()) as Envelope<ResOf<C>>;
  } catch {
    body = undefined;
  }
  if (body && body.code === 0 && res.ok) return body.data;
  const err = new ApiError(body?.msg || `请求失败（${res.status}）`, body?.code ?? res.status, res.status);
  if (res.status === 401 && def.auth !== 'public' && !opts.no401Redirect) {
    rememberLogout(err);
    goToLogin();
    throw err;
  }
  if (!opts.silent) errorToast(err.message);
  throw err;
}
