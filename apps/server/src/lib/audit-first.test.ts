import { expect, it } from 'vitest';
import type { Executor } from '../db/index.ts';
import { inWriteTx } from './write-queue.ts';
import { describeEachDb } from '../../test/harness.ts';
import { audit, auditFirst, scopedDb, systemScope } from './audit.ts';

// auditFirst: a booking writes its entry before it takes the session's row lock (booking-engine.ts
// `bookWithCard` when `isTheCallsChange`), so the lock is held for the write and the commit only.
describeEachDb('audit entry written first', (env) => {
  /** The entries of `call` as the executor sees them, each with its targets. */
  async function entries(ex: Executor, call: string) {
    const rows = await ex
      .selectFrom('auditLog')
      .select(['id', 'summary'])
      .where('call', '=', call)
      .orderBy('id')
      .execute();
    const targets = await ex
      .selectFrom('auditTarget')
      .select(['auditId', 'type', 'refId'])
      .where('auditId', 'in', rows.map((r) => r.id).concat(-1))
      .orderBy('type')
      .execute();
    return rows.map((r) => ({
      summary: r.summary,
      targets: targets.filter((t) => t.auditId === r.id).map((t) => `${t.type}:${t.refId}`),
    }));
  }

  const run = (call: string, body: (tx: Executor) => Promise<void>) => {
    const { database, dialect, storeId } = env();
    const db = scopedDb(database.db, systemScope('测试', call, 'booking', storeId));
    return inWriteTx(db, dialect, body);
  };

  it('writes the entry at once when it is the transaction’s first note, and none again at the end', async () => {
    const { database } = env();
    await run('first.alone', async (tx) => {
      await auditFirst(tx, { summary: '用会员卡预约', targets: [{ type: 'session', id: 7 }] });
      expect(await entries(tx, 'first.alone')).toEqual([{ summary: '用会员卡预约', targets: ['session:7'] }]);
    });
    expect(await entries(database.db, 'first.alone')).toEqual([{ summary: '用会员卡预约', targets: ['session:7'] }]);
  });

  it('gives a later note of the same transaction an entry of its own', async () => {
    const { database } = env();
    await run('first.then', async (tx) => {
      await auditFirst(tx, { summary: '用会员卡预约', targets: [{ type: 'session', id: 7 }] });
      audit(tx, { summary: '另一项修改', targets: [{ type: 'member', id: 9 }] });
    });
    expect(await entries(database.db, 'first.then')).toEqual([
      { summary: '用会员卡预约', targets: ['session:7'] },
      { summary: '另一项修改', targets: ['member:9'] },
    ]);
  });

  it('after another note, only notes: one entry at the end with both', async () => {
    const { database } = env();
    await run('first.after', async (tx) => {
      audit(tx, { summary: '取消预约', targets: [{ type: 'member', id: 9 }] });
      await auditFirst(tx, { targets: [{ type: 'session', id: 7 }] });
      expect(await entries(tx, 'first.after')).toEqual([]);
    });
    expect(await entries(database.db, 'first.after')).toEqual([
      { summary: '取消预约', targets: ['member:9', 'session:7'] },
    ]);
  });

  it('leaves no entry when the change is refused after it', async () => {
    const { database } = env();
    await expect(
      run('first.refused', async (tx) => {
        await auditFirst(tx, { targets: [{ type: 'session', id: 7 }] });
        throw new Error('课程人数已满，无法预约');
      }),
    ).rejects.toThrow('课程人数已满');
    expect(await entries(database.db, 'first.refused')).toEqual([]);
  });
});
