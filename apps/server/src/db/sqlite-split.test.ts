// SQLite reads outside a transaction run on a read-only second connection, and a long write
// transaction yields the event loop: neither holds up the reads of other requests, which see only
// committed data, while the transaction stays all or nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/harness.ts';
import { Factory } from '../../test/factory.ts';
import { createStoreWithAdmin } from '../features/store-admin/public.ts';

describe('reads during a long SQLite write transaction [sqlite]', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let f: Factory;
  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    const { storeId } = await createStoreWithAdmin(database.db, {
      storeName: '读写分离',
      admin: { username: 'split_admin', password: 'split-password-1', name: '管理员' },
    });
    f = new Factory(database.db, storeId);
  });
  afterAll(async () => {
    await database?.close();
    await database?.drop();
  });

  const areaName = async (id: number) =>
    (await database.db.selectFrom('area').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

  it('a read is answered while a write transaction is held open, and sees only committed data', async () => {
    const area = await f.area({ name: '旧名字' });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let open = false;
    const tx = database.db.transaction().execute(async (t) => {
      await t.updateTable('area').set({ name: '新名字' }).where('id', '=', area.id).execute();
      expect((await t.selectFrom('area').select('name').where('id', '=', area.id).executeTakeFirstOrThrow()).name).toBe(
        '新名字',
      );
      open = true;
      await held;
    });
    while (!open) await new Promise((r) => setImmediate(r));
    const during = await areaName(area.id); // would wait for the transaction on a single connection
    const stillOpen = open;
    release();
    await tx;
    expect(stillOpen).toBe(true);
    expect(during).toBe('旧名字');
    expect(await areaName(area.id)).toBe('新名字');
  });

  it('a long transaction lets a request that arrives meanwhile (a later event-loop turn) read before it ends', async () => {
    const area = await f.area({ name: '长事务前' });
    let txDone = false;
    let readDuring: { name: string; txDone: boolean } | undefined;
    const tx = database.db.transaction().execute(async (t) => {
      await t.updateTable('area').set({ name: '长事务后' }).where('id', '=', area.id).execute();
      for (let i = 0; i < 3000; i++) {
        await t.updateTable('area').set({ sort: i }).where('id', '=', area.id).execute();
      }
      txDone = true;
    });
    // A macrotask, as an incoming request is: it runs only when the transaction yields a turn.
    const read = new Promise<void>((resolve, reject) =>
      setImmediate(() =>
        areaName(area.id).then((name) => {
          readDuring = { name, txDone };
          resolve();
        }, reject),
      ),
    );
    await Promise.all([tx, read]);
    expect(readDuring).toEqual({ name: '长事务前', txDone: false });
    expect(await areaName(area.id)).toBe('长事务后');
  });
});
