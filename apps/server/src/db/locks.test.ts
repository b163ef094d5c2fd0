import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../test/harness.ts';
import { lockRooms } from './locks.ts';

describeEachDb('row locks (db/locks.ts)', (env) => {
  it('locks every row asked for, past the first thousand ids (PostgreSQL; nothing to lock on SQLite)', async () => {
    const { database, factory, dialect } = env();
    const rooms = [(await factory.area()).id, (await factory.area()).id];
    // 2,000 ids below any real one come first in id order: the real rooms are in the third statement.
    const ids = [...rooms, ...Array.from({ length: 2000 }, (_, i) => -1 - i)];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let taken!: () => void;
    const locked = new Promise<void>((r) => (taken = r));
    const holder = database.db.transaction().execute(async (tx) => {
      await lockRooms(tx, ids);
      taken();
      await held;
    });
    try {
      await Promise.race([locked, holder]);
      if (dialect === 'postgres') {
        for (const id of rooms) {
          const other = database.db
            .transaction()
            .execute((tx) => sql`select id from area where id = ${id} for no key update nowait`.execute(tx));
          await expect(other).rejects.toThrow(/could not obtain lock/);
        }
      }
    } finally {
      release();
      await holder;
    }
  });
});
