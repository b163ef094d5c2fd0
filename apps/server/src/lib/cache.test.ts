import { describe, expect, it, vi } from 'vitest';
import { FOREVER, shortLived, taggedCache } from './cache.ts';

/** A load that counts its runs and answers `value` (or fails with it, an Error). */
function counted<V>(value: V | Error) {
  const runs = { n: 0 };
  const load = async () => {
    runs.n += 1;
    await Promise.resolve();
    if (value instanceof Error) throw value;
    return value;
  };
  return { runs, load };
}

describe('a tagged cache (lib/cache.ts)', () => {
  it('keeps a value while the tag stays, loads again when it moves, per database and key', async () => {
    const cache = taggedCache<string>({ max: 10 });
    const [db, other] = [{}, {}];
    const a = counted('a');
    expect(await cache.get(db, 'k', 'v1', a.load)).toBe('a');
    expect(await cache.get(db, 'k', 'v1', a.load)).toBe('a');
    expect(a.runs.n).toBe(1);
    const b = counted('b');
    expect(await cache.get(db, 'k', 'v2', b.load)).toBe('b');
    expect(await cache.get(db, 'other key', 'v2', b.load)).toBe('b');
    expect(await cache.get(other, 'k', 'v2', b.load)).toBe('b');
    expect(b.runs.n).toBe(3);
    expect(await cache.get(db, 'k', 'v2', counted('c').load)).toBe('b');
  });

  it('shares one load between concurrent misses of one key and tag', async () => {
    const cache = taggedCache<number>({ max: 10 });
    const db = {};
    const one = counted(1);
    expect(await Promise.all([1, 2, 3].map(() => cache.get(db, 'k', FOREVER, one.load)))).toEqual([1, 1, 1]);
    expect(one.runs.n).toBe(1);
  });

  it('does not keep a failed load: the next call loads again', async () => {
    const cache = taggedCache<number>({ max: 10 });
    const db = {};
    await expect(cache.get(db, 'k', 't', counted<number>(new Error('down')).load)).rejects.toThrow('down');
    const again = counted(2);
    expect(await cache.get(db, 'k', 't', again.load)).toBe(2);
    expect(again.runs.n).toBe(1);
  });

  it('starts over past `max` keys of a database', async () => {
    const cache = taggedCache<number>({ max: 2 });
    const db = {};
    const first = counted(1);
    await cache.get(db, 'a', 't', first.load);
    await cache.get(db, 'b', 't', first.load);
    await cache.get(db, 'c', 't', first.load);
    await cache.get(db, 'a', 't', first.load);
    expect(first.runs.n).toBe(4);
  });
});

describe('a short-lived cache (lib/cache.ts shortLived)', () => {
  it('keeps a value for its time, forgets a key when told, and keeps nothing `keep` refuses', async () => {
    let clock = 1_000;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock);
    try {
      const cache = shortLived<number | undefined>({ ttlMs: 5000, max: 10, keep: (v) => v !== undefined });
      const db = {};
      const other = {};
      let n = 0;
      const load = async () => (n += 1);
      expect(await cache.get(db, 1, load)).toBe(1);
      clock += 4999;
      expect(await cache.get(db, 1, load)).toBe(1);
      clock += 1;
      expect(await cache.get(db, 1, load)).toBe(2);
      cache.forget(db, 1);
      expect(await cache.get(db, 1, load)).toBe(3);
      expect(await cache.get(db, 2, load)).toBe(4);
      expect(await cache.get(db, 1, async () => undefined)).toBe(3);
      // Another database's key 1 is its own (two databases in one process: the test runs).
      expect(await cache.get(other, 1, load)).toBe(5);
      expect(await cache.get(db, 1, load)).toBe(3);
      cache.forget(other, 1);
      expect(await cache.get(db, 1, load)).toBe(3);
      cache.forget();
      expect(await cache.get(db, 1, async () => undefined)).toBeUndefined();
      expect(await cache.get(db, 1, load)).toBe(6);
    } finally {
      now.mockRestore();
    }
  });
});
