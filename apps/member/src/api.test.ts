import { memberMyBookings, memberStore } from '@studio/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, setSignedOutHandler } from './api.ts';

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })),
  );
}
const failure = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('answered')),
    (e: ApiError) => e,
  );

afterEach(() => {
  vi.unstubAllGlobals();
  setSignedOutHandler(() => {});
});

describe("the members' request helper", () => {
  it("tells the page the member is signed out when a member's call gets 401", async () => {
    const signedOut = vi.fn();
    setSignedOutHandler(signedOut);
    answer(401, { code: 401, data: null, msg: '请先登录' });
    const e = await failure(call(memberMyBookings, { state: 'upcoming', page: 1 }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toBe('请先登录');
    expect(signedOut).toHaveBeenCalledTimes(1);
    // a public call's 401 is not about the member's session
    await failure(call(memberStore, { storeId: 3 }));
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('words what the server did not: an unreadable answer, a failure without a message, no network', async () => {
    answer(502, '<html>Bad Gateway</html>');
    expect((await failure(call(memberStore, { storeId: 3 }))).message).toBe('服务暂时不可用，请稍后再试');
    answer(500, { code: 500, data: null, msg: '' });
    expect((await failure(call(memberStore, { storeId: 3 }))).message).toBe('操作失败，请稍后再试');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const offline = await failure(call(memberStore, { storeId: 3 }));
    expect([offline.message, offline.status]).toEqual(['网络连接失败，请检查网络后重试', 0]);
  });

  it("answers the envelope's data", async () => {
    answer(200, { code: 0, data: { list: [], total: 0 }, msg: '' });
    expect(await call(memberMyBookings, { state: 'past', page: 2 })).toEqual({ list: [], total: 0 });
  });
});
