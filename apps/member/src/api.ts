import type { CallDef, Envelope, memberStore, ReqOf, ResOf } from '@studio/contract';

/** The store of the page, as /member/api/query/store answers it. */
export type StoreInfo = ResOf<typeof memberStore>;

/** A failed call: the server's Chinese message and its status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let onSignedOut: () => void = () => {};
/** The app is told when a call finds the member signed out (session ended at the desk, expired). */
export function setSignedOutHandler(fn: () => void): void {
  onSignedOut = fn;
}

/** POSTs a call of the contract with the member cookie; answers `data` or throws ApiError. */
export async function call<C extends CallDef>(def: C, payload: ReqOf<C>): Promise<ResOf<C>> {
  let res: Response;
  try {
    res = await fetch(def.path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload ?? {}),
    });
  } catch {
    throw new ApiError('网络连接失败，请检查网络后重试', 0);
  }
  let body: Envelope<ResOf<C>> | undefined;
  try {
    body = (await res.json()) as Envelope<ResOf<C>>;
  } catch {
    throw new ApiError('服务暂时不可用，请稍后再试', res.status);
  }
  if (body.code !== 0) {
    if (res.status === 401 && def.auth === 'member') onSignedOut();
    throw new ApiError(body.msg || '操作失败，请稍后再试', res.status);
  }
  return body.data;
}
