import { Msg } from '@studio/contract';
import { ApiError, createClient } from '@studio/contract/client';

export { ApiError, type CallOptions } from '@studio/contract/client';

type Toast = (msg: string) => void;
let errorToast: Toast = (msg) => console.error(msg);

/** The app shell installs antd's message API here so the helper can show toasts. */
export function setErrorToast(fn: Toast): void {
  errorToast = fn;
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
 * The back office's request helper (the shared client, `@studio/contract/client`): a 401 sends the
 * browser to /login (keeping why, rememberLogout) unless the call says `keepSignedIn`; any other
 * failure is an error toast unless the call is `silent`.
 */
export const call = createClient({
  onSignedOut: (err) => {
    rememberLogout(err);
    goToLogin();
  },
  onError: (err) => errorToast(err.message),
});
