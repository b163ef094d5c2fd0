import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * Consent for marketing texts (issue 44, item 7):
 * - `lead_consent`: a lead's marketing consent given or withdrawn, never changed: granted or not, how
 *   ('visit' 到店, 'phone' 电话, 'online' 线上报名 the sign-up page's checkbox, 'sms_reply' 短信回复T,
 *   'link' 退订链接), when (store-local) and by whom (staff, null: the person). The latest row of a lead
 *   is its choice. A lead merged into another takes its rows along.
 * - `member_consent.way` also 'sms_reply' (a reply T to a marketing text) and 'link' (the unsubscribe
 *   link): the withdrawals a marketing text offers. SQLite cannot change a CHECK: the table is made
 *   again from its own definition with the wider list, its rows and indexes copied over.
 */
export function marketingConsent(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('lead_consent')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('lead_id', 'integer', (c) => c.notNull().references('lead.id'))
        .addColumn('granted', 'integer', (c) => c.notNull().check(sql`granted in (0, 1)`))
        .addColumn('way', 'text', (c) =>
          c.notNull().check(sql`way in ('visit', 'phone', 'online', 'sms_reply', 'link')`),
        )
        .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_consent_lead').on('lead_consent').columns(['lead_id', 'id']).execute();

      const ways = `way in ('phone', 'desk', 'sms_reply', 'link')`;
      if (dialect === 'postgres') {
        await sql`alter table member_consent drop constraint member_consent_way_check`.execute(db);
        await sql.raw(`alter table member_consent add constraint member_consent_way_check check (${ways})`).execute(db);
        return;
      }
      const table = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'table' and name = 'member_consent'`.execute(db);
      const indexes = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'index' and tbl_name = 'member_consent' and sql is not null`.execute(
        db,
      );
      let ddl = table.rows[0].sql;
      const re = /way in \('phone', 'desk'\)/i;
      if (!re.test(ddl)) throw new Error(`member_consent.way: check not found in ${ddl}`);
      ddl = ddl.replace(re, ways).replace(/^create table\s+"?member_consent"?/i, 'create table "member_consent_new"');
      await sql.raw(ddl).execute(db);
      await sql`insert into member_consent_new select * from member_consent`.execute(db);
      await sql`drop table member_consent`.execute(db);
      await sql`alter table member_consent_new rename to member_consent`.execute(db);
      for (const i of indexes.rows) await sql.raw(i.sql).execute(db);
    },
  };
}
