/**
 * The one browser client of the contract, for the staff back office and the members' page alike:
 * POSTs a call's JSON to its path with the session cookie, answers the envelope's `data`, throws
 * ApiError with the server's `msg`. What differs between the two apps (the back office's toasts and
 * its redirect to /login, the members' page's sign-out and its fallback wording) comes in as
 * options. Imported as `@studio/contract/client`; types only from the rest of the contract, so
 * it carries no zod into a bundle.
 */
import type { CallDef, ReqOf, ResOf } from './define.ts';
import type { Envelope } from './envelope.ts';

/** A failed call: the server's (or the network's) message, its `code` and the HTTP status (0: no answer). */
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

/** The `code` of a call that got no answer at all (network down, server unreachable). */
export const NO_ANSWER = -1;

/** Options of one call. */
export interface CallOptions {
  /** The caller shows or ignores the failure: the client's `onError` is not told. */
  silent?: boolean;
  /** A 401 is the caller's to handle: the client's `onSignedOut` is not run. */
  keepSignedIn?: boolean;
  signal?: AbortSignal;
  /**
   * Sends the request instead of fetch (a large upload reporting its bytes sent through
   * XMLHttpRequest, e.g. 导入's file): answers what the client reads of a Response.
   */
  send?: (path: string, body: string, signal?: AbortSignal) => Promise<SentAnswer>;
}

/** What the client reads of an answer (a fetch Response has it). */
export type SentAnswer = Pick<Response, 'status' | 'ok' | 'json'>;

/** What an app's client does its own way. */
export interface ClientOptions {
  /** Run for a 401 of a call that needs a session (not `public`), unless the call said `keepSignedIn`; the error is thrown after it, without `onError`. */
  onSignedOut?: (err: ApiError, def: CallDef) => void;
  /** Run for every other failure, unless the call said `silent` (an app's error toast). */
  onError?: (err: ApiError) => void;
  /** The message of a request that got no answer. */
  networkMessage?: string;
  /** The message of an answer that is not the envelope (a proxy's error page). */
  unreadableMessage?: (status: number) => string;
  /** The message of a failure whose envelope has no `msg`. */
  failedMessage?: (status: number) => string;
}

export type Call = <C extends CallDef>(def: C, payload: ReqOf<C>, opts?: CallOptions) => Promise<ResOf<C>>;

const NETWORK = '网络连接失败，请检查网络后重试';
const failed = (status: number) => `请求失败（${status}）`;

/** Makes an app's `call(def, payload, opts)`: answers `data`, throws ApiError (AbortError as it is). */
export function createClient(options: ClientOptions = {}): Call {
  const {
    onSignedOut,
    onError,
    networkMessage = NETWORK,
    unreadableMessage = failed,
    failedMessage = failed,
  } = options;
  return async function call<C extends CallDef>(def: C, payload: ReqOf<C>, opts: CallOptions = {}) {
    let res: SentAnswer;
    try {
      const body = JSON.stringify(payload ?? {});
      res = opts.send
        ? await opts.send(def.path, body, opts.signal)
        : await fetch(def.path, {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json' },
            body,
            signal: opts.signal,
          });
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      const err = new ApiError(networkMessage, NO_ANSWER, 0);
      if (!opts.silent) onError?.(err);
      throw err;
    }
    let body: Envelope<ResOf<C>> | undefined;
    try {
      body = (await res.json()) as Envelope<ResOf<C>>;
    } catch {
      body = undefined;
    }
    if (body && body.code === 0 && res.ok) return body.data;
    const err = body
      ? new ApiError(body.msg || failedMessage(res.status), body.code || res.status, res.status)
      : new ApiError(unreadableMessage(res.status), res.status, res.status);
    if (res.status === 401 && def.auth !== 'public' && !opts.keepSignedIn && onSignedOut) {
      onSignedOut(err, def);
      throw err;
    }
    if (!opts.silent) onError?.(err);
    throw err;
  };
}
