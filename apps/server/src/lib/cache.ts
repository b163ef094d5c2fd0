/**
 * Values kept in this app instance, per database handle and key, each with the tag it was made at.
 *
 * The invalidation is the tag: a value is used only while the caller's tag is the one it was made
 * at, so the caller states what makes it stale by what it passes, read afresh on every call:
 * - a data version read from the database (db/data-version.ts), so a write on any instance is
 *   seen by the next read on every other (the staff calendar, the members' timetable);
 * - the hour of the store's clock (a job's scan that runs once an hour);
 * - `FOREVER` for a value that never changes once made (the installation's challenge key).
 *
 * Concurrent misses of one key and tag share one load (a class release: a thousand members opening
 * the day at once). A failed load is not kept: the next call loads again. At most `max` keys are
 * kept per database handle; past that the cache starts over.
 */
export interface TaggedCache<V> {
  /** The value of `key` made at `tag`: the one kept, or the one `load` answers (then kept). */
  get(db: object, key: string, tag: string, load: () => Promise<V>): Promise<V>;
}

/** The tag of a value that never goes stale. */
export const FOREVER = '';

export function taggedCache<V>(o: { max: number }): TaggedCache<V> {
  const perDb = new WeakMap<object, Map<string, { tag: string; value: Promise<V> }>>();
  return {
    get(db, key, tag, load) {
      let kept = perDb.get(db);
      if (!kept) perDb.set(db, (kept = new Map()));
      const hit = kept.get(key);
      if (hit?.tag === tag) return hit.value;
      const entries = kept;
      const value = load();
      const entry = { tag, value };
      if (entries.size >= o.max) entries.clear();
      entries.set(key, entry);
      // Not kept when it fails (unless a newer value took its place meanwhile).
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
  };
}

/**
 * Values kept in this app instance for a few seconds, per database (`databaseOf`, db/dialect.ts:
 * a handle and its transactions alike) and key: what a store set that a hot path reads on every
 * call (its time zone, whether it has a group robot, whether it asks for a health declaration). A
 * change saved on this instance forgets the key at once (`forget`); on another instance the old
 * value holds at most `ttlMs`. At most `max` keys are kept per database; past that it starts over.
 */
export interface ShortLived<V> {
  get(db: object, key: number | string, load: () => Promise<V>): Promise<V>;
  /** Forgets `key` of `db`, or every key of every database. */
  forget(db?: object, key?: number | string): void;
}

export function shortLived<V>(o: { ttlMs: number; max: number; keep?: (v: V) => boolean }): ShortLived<V> {
  let perDb = new WeakMap<object, Map<number | string, { value: V; until: number }>>();
  return {
    async get(db, key, load) {
      let kept = perDb.get(db);
      if (!kept) perDb.set(db, (kept = new Map()));
      const now = Date.now();
      const hit = kept.get(key);
      if (hit && hit.until > now) return hit.value;
      const value = await load();
      if (o.keep && !o.keep(value)) return value;
      if (kept.size >= o.max) kept.clear();
      kept.set(key, { value, until: now + o.ttlMs });
      return value;
    },
    forget(db, key) {
      if (db === undefined) perDb = new WeakMap();
      else if (key === undefined) perDb.delete(db);
      else perDb.get(db)?.delete(key);
    },
  };
}
