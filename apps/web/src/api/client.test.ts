import { login, me, Msg } from '@studio/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, setErrorToast, takeLoginNotice } from './client.ts';

/** The browser the helper runs in: an address, and a session store. */
function browserAt(pathname: string, search = '') {
  const assign = vi.fn();
  const store = new Map<string, string>();
  vi.stubGlobal('window', { location: { pathname, search, assign } });
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  return assign;
}

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}
const failure = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('answered')),
    (e: ApiError) => e,
  );

let toast: ReturnType<typeof vi.fn<(msg: string) => void>>;
beforeEach(() => {
  toast = vi.fn();
  setErrorToast(toast);
});
afterEach(() => vi.unstubAllGlobals());

describe("the back office's request helper", () => {
  it('shows a failure as an error toast, unless the call is silent', async () => {
    browserAt('/course/calendar');
    answer(409, { code: 409, data: null, msg: '该时段已有课程' });
    const e = await failure(call(me, {}));
    expect([e.message, e.code, e.status]).toEqual(['该时段已有课程', 409, 409]);
    expect(toast).toHaveBeenCalledExactlyOnceWith('该时段已有课程');
    await failure(call(me, {}, { silent: true }));
    expect(toast).toHaveBeenCalledTimes(1);
  });

  it('a 401 sends the browser to /login, coming back to where it was; no toast', async () => {
    const assign = browserAt('/member/detail', '?member_id=5');
    answer(401, { code: 401, data: null, msg: '请先登录' });
    await failure(call(me, {}));
    expect(assign).toHaveBeenCalledExactlyOnceWith(
      `/login?redirect=${encodeURIComponent('/member/detail?member_id=5')}`,
    );
    expect(toast).not.toHaveBeenCalled();
    expect(takeLoginNotice()).toBeNull(); // an ended session needs no word on the login page
  });

  it('a disabled account is logged out with its reason kept for the login page, once', async () => {
    const assign = browserAt('/today');
    answer(401, { code: 401, data: null, msg: Msg.staffDisabled });
    await failure(call(me, {}));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(takeLoginNotice()).toBe(Msg.staffDisabled);
    expect(takeLoginNotice()).toBeNull();
  });

  it('keepSignedIn leaves a 401 to the caller; a 401 on the login page or of a public call does not redirect', async () => {
    let assign = browserAt('/today');
    answer(401, { code: 401, data: null, msg: '请先登录' });
    await failure(call(me, {}, { keepSignedIn: true, silent: true }));
    expect(assign).not.toHaveBeenCalled();

    assign = browserAt('/login');
    await failure(call(me, {}));
    expect(assign).not.toHaveBeenCalled();

    assign = browserAt('/today');
    answer(401, { code: 401, data: null, msg: Msg.loginFailed });
    await failure(call(login, { account: 'desk', password: 'x' }));
    expect(assign).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledExactlyOnceWith(Msg.loginFailed);
  });
});
