import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { createQueryClient, shouldRetry, STALE_MS } from './query-client.ts';

describe("the members' page QueryClient", () => {
  it('tries a read once more only when there was no answer or a server error, never on a refusal', () => {
    expect(shouldRetry(0, new ApiError('网络连接失败，请检查网络后重试', -1, 0))).toBe(true);
    expect(shouldRetry(0, new ApiError('服务暂时不可用，请稍后再试', 502, 502))).toBe(true);
    expect(shouldRetry(1, new ApiError('服务暂时不可用，请稍后再试', 502, 502))).toBe(false);
    for (const status of [400, 401, 403, 404, 409, 429]) {
      expect(shouldRetry(0, new ApiError('不行', status, status)), String(status)).toBe(false);
    }
    expect(shouldRetry(0, new Error('anything else'))).toBe(true);
  });

  it('keeps answers fresh for 30 s, asks again on coming back to the page, never repeats a write', () => {
    const qc = createQueryClient(() => {});
    const { queries, mutations } = qc.getDefaultOptions();
    expect(STALE_MS).toBe(30_000);
    expect(queries?.staleTime).toBe(STALE_MS);
    expect(queries?.refetchOnWindowFocus).toBe(true);
    expect(queries?.retry).toBe(shouldRetry);
    expect(mutations?.retry).toBe(false);
  });

  it('retries a server error once and a refusal not at all', async () => {
    const qc = createQueryClient(() => {});
    const fails = (status: number) => vi.fn().mockRejectedValue(new ApiError('x', status, status));
    const serverError = fails(503);
    await qc.fetchQuery({ queryKey: ['a'], queryFn: serverError, retryDelay: 0 }).catch(() => {});
    expect(serverError).toHaveBeenCalledTimes(2);
    const refused = fails(409);
    await qc.fetchQuery({ queryKey: ['b'], queryFn: refused, retryDelay: 0 }).catch(() => {});
    expect(refused).toHaveBeenCalledTimes(1);
  });

  it("shows a failed read in a toast when the read asks for it, once, in the server's words", async () => {
    const toast = vi.fn();
    const qc = createQueryClient(toast);
    const refused = () => Promise.reject(new ApiError('会员卡已冻结', 409, 409));
    await qc.fetchQuery({ queryKey: ['quiet'], queryFn: refused }).catch(() => {});
    expect(toast).not.toHaveBeenCalled();
    await qc.fetchQuery({ queryKey: ['loud'], queryFn: refused, meta: { errorToast: true } }).catch(() => {});
    expect(toast).toHaveBeenCalledExactlyOnceWith('会员卡已冻结');
  });
});
