import { describe, expect, it } from 'vitest';
import { storeDateTime } from './store-time.ts';

const at = (iso: string) => Date.parse(iso);

describe("storeDateTime: now on the store's wall clock, whatever the browser's zone", () => {
  it("reads an instant in the store's zone (a browser in UTC at 08:51 prints 16:51 in Shanghai)", () => {
    expect(storeDateTime('Asia/Shanghai', at('2026-11-27T08:51:30Z'))).toBe('2026-11-27 16:51:30');
    expect(storeDateTime('UTC', at('2026-11-27T08:51:30Z'))).toBe('2026-11-27 08:51:30');
    expect(storeDateTime('Asia/Tokyo', at('2026-11-27T08:51:30Z'))).toBe('2026-11-27 17:51:30');
  });

  it('crosses midnight and the year with the store, writing midnight as 00', () => {
    expect(storeDateTime('Asia/Shanghai', at('2025-12-31T16:00:00Z'))).toBe('2026-01-01 00:00:00');
    expect(storeDateTime('America/New_York', at('2026-01-01T03:30:00Z'))).toBe('2025-12-31 22:30:00');
  });

  it("follows the store's daylight saving time", () => {
    // New York: UTC-5 in winter, UTC-4 in summer
    expect(storeDateTime('America/New_York', at('2026-01-15T12:00:00Z'))).toBe('2026-01-15 07:00:00');
    expect(storeDateTime('America/New_York', at('2026-07-15T12:00:00Z'))).toBe('2026-07-15 08:00:00');
  });

  it('is now by default, and an unknown zone reads as the default store zone (Asia/Shanghai)', () => {
    const before = Date.now();
    const now = storeDateTime('UTC');
    expect(now >= storeDateTime('UTC', before) && now <= storeDateTime('UTC', Date.now())).toBe(true);
    expect(storeDateTime('Not/AZone', at('2026-11-27T08:51:00Z'))).toBe('2026-11-27 16:51:00');
  });
});
