import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Issue 42, items 1 and 13:
 *
 * - 异常订单: an order paid but not fulfilled (its card refunded or transferred meanwhile, its product
 *   deleted, its member gone) is status 5 with `pay_order.exception_reason`; the reason stays after its
 *   原路退款 (status 3 then). Such a refund changes no card: `pay_refund.member_card_id` and `ledger_id`
 *   become nullable (null: the refund of an 异常订单, no card change to record or put back).
 * - 体验卡 once per member, in the order's insert: a partial unique index over a member's trial orders
 *   open or paid (status 0, 1, 4), so of two taps at once the second insert fails. Trial orders sold
 *   twice before the rule was guarded are kept, marked `trial = 2` (all but the member's first), so the
 *   index can be built over what exists.
 */
export function payOrderException(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('pay_order').addColumn('exception_reason', 'text').execute();
      await sql`update pay_order set trial = 2
        where trial = 1 and status in (0, 1, 4) and exists (
          select 1 from pay_order p where p.store_id = pay_order.store_id and p.member_id = pay_order.member_id
            and p.trial = 1 and p.status in (0, 1, 4) and p.id < pay_order.id)`.execute(db);
      await sql`create unique index pay_order_trial_once on pay_order (store_id, member_id)
        where trial = 1 and status in (0, 1, 4)`.execute(db);
      if (dialect === 'postgres') {
        await sql`alter table pay_refund alter column member_card_id drop not null`.execute(db);
        await sql`alter table pay_refund alter column ledger_id drop not null`.execute(db);
        return;
      }
      // SQLite cannot drop NOT NULL: the table is made again from its own definition (whatever columns
      // it has by now), the two columns without it, and its rows and indexes copied over.
      const table = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'table' and name = 'pay_refund'`.execute(db);
      const indexes = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'index' and tbl_name = 'pay_refund' and sql is not null`.execute(
        db,
      );
      let ddl = table.rows[0].sql;
      for (const col of ['member_card_id', 'ledger_id']) {
        const re = new RegExp(`("?${col}"?\\s+integer)\\s+not null`, 'i');
        if (!re.test(ddl)) throw new Error(`pay_refund.${col}: NOT NULL not found in ${ddl}`);
        ddl = ddl.replace(re, '$1');
      }
      ddl = ddl.replace(/^create table\s+"?pay_refund"?/i, 'create table "pay_refund_new"');
      await sql.raw(ddl).execute(db);
      await sql`insert into pay_refund_new select * from pay_refund`.execute(db);
      await sql`drop table pay_refund`.execute(db);
      await sql`alter table pay_refund_new rename to pay_refund`.execute(db);
      for (const i of indexes.rows) await sql.raw(i.sql).execute(db);
    },
  };
}
