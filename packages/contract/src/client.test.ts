import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memberMyCards, memberStore } from './calls/index.ts';
import { ApiError, createClient, NO_ANSWER } from './client.ts';

/** A fake fetch answering `status` with `body` (an object as JSON, a string as it is). */
function answer(status: number, body: unknown) {
  const fn = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }),
  );
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The error a call throws (fails the test when it answers). */
async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('the call answered');
}

let onError: ReturnType<typeof vi.fn<(e: ApiError) => void>>;
let onSignedOut: ReturnType<typeof vi.fn<(e: ApiError) => void>>;
let call: ReturnType<typeof createClient>;
beforeEach(() => {
  onError = vi.fn();
  onSignedOut = vi.fn();
  call = createClient({ onError, onSignedOut: (e) => onSignedOut(e) });
});
afterEach(() => vi.unstubAllGlobals());

describe('the shared client: POST a call, unwrap {code, data, msg}', () => {
  it("POSTs the payload as JSON to the call's path with the cookie, and answers `data`", async () => {
    const fetch = answer(200, { code: 0, data: { storeId: 3, storeName: '瑜伽馆' }, msg: '' });
    const signal = new AbortController().signal;
    expect(await call(memberStore, { storeId: 3 }, { signal })).toEqual({ storeId: 3, storeName: '瑜伽馆' });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(memberStore.path);
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', signal });
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ storeId: 3 });
    expect(onError).not.toHaveBeenCalled();
  });

  it('sends {} for a call without payload', async () => {
    const fetch = answer(200, { code: 0, data: [], msg: '' });
    expect(await call(memberMyCards, undefined as never)).toEqual([]);
    expect(fetch.mock.calls[0][1].body).toBe('{}');
  });

  it("throws the server's message with its code and status, and tells onError unless silent", async () => {
    answer(409, { code: 409, data: null, msg: '课程已满' });
    const e = await failure(call(memberMyCards, {}));
    expect(e).toBeInstanceOf(ApiError);
    expect([e.message, e.code, e.status]).toEqual(['课程已满', 409, 409]);
    expect(onError).toHaveBeenCalledExactlyOnceWith(e);

    onError.mockClear();
    await failure(call(memberMyCards, {}, { silent: true }));
    expect(onError).not.toHaveBeenCalled();
    expect(onSignedOut).not.toHaveBeenCalled();
  });

  it('is a success only with code 0 and a 2xx status', async () => {
    answer(500, { code: 0, data: null, msg: '' });
    const e = await failure(call(memberMyCards, {}));
    expect([e.message, e.code, e.status]).toEqual(['请求失败（500）', 500, 500]);
  });

  it('a 401 of a call that needs a session signs out (not onError); a public call or keepSignedIn is an ordinary failure', async () => {
    answer(401, { code: 401, data: null, msg: '请先登录' });
    const e = await failure(call(memberMyCards, {}));
    expect(e.status).toBe(401);
    expect(onSignedOut).toHaveBeenCalledExactlyOnceWith(e);
    expect(onError).not.toHaveBeenCalled();

    onSignedOut.mockClear();
    await failure(call(memberStore, { storeId: 3 }));
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);

    await failure(call(memberMyCards, {}, { keepSignedIn: true, silent: true }));
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('without onSignedOut a 401 is told to onError like any failure', async () => {
    answer(401, { code: 401, data: null, msg: '请先登录' });
    const plain = createClient({ onError });
    await failure(plain(memberMyCards, {}));
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('no answer at all is the network message, code -1, status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const e = await failure(call(memberMyCards, {}));
    expect([e.message, e.code, e.status]).toEqual(['网络连接失败，请检查网络后重试', NO_ANSWER, 0]);
    expect(onError).toHaveBeenCalledExactlyOnceWith(e);
  });

  it('an aborted call throws the AbortError as it is, told to nobody', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(abort));
    expect(await failure(call(memberMyCards, {}))).toBe(abort);
    expect(onError).not.toHaveBeenCalled();
  });

  it('an answer that is not the envelope (a proxy error page) says the status', async () => {
    answer(502, '<html>Bad Gateway</html>');
    const e = await failure(call(memberMyCards, {}));
    expect([e.message, e.code, e.status]).toEqual(['请求失败（502）', 502, 502]);
  });

  it('an app words failures its own way: no answer, an unreadable answer, a failure without msg', async () => {
    const own = createClient({
      networkMessage: '没有网络',
      unreadableMessage: (s) => `服务不可用 ${s}`,
      failedMessage: (s) => `失败 ${s}`,
    });
    answer(503, 'Service Unavailable');
    expect((await failure(own(memberMyCards, {}))).message).toBe('服务不可用 503');
    answer(400, { code: 400, data: null, msg: '' });
    expect((await failure(own(memberMyCards, {}))).message).toBe('失败 400');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    expect((await failure(own(memberMyCards, {}))).message).toBe('没有网络');
  });
});
