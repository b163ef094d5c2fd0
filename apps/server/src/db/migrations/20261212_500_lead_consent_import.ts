import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * `lead_consent.way` also 'import' (导入): the marketing consent the import's 潜客 sheet records
 * (营销同意 是). SQLite cannot change a CHECK: the table is made again from its own definition with the
 * wider list, its rows and indexes copied over (as 20261211_800 did for member_consent).
 */
export function leadConsentImport(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ways = `way in ('visit', 'phone', 'online', 'sms_reply', 'link', 'import')`;
      if (dialect === 'postgres') {
        await sql`alter table lead_consent drop constraint lead_consent_way_check`.execute(db);
        await sql.raw(`alter table lead_consent add constraint lead_consent_way_check check (${ways})`).execute(db);
        return;
      }
      const table = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'table' and name = 'lead_consent'`.execute(db);
      const indexes = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'index' and tbl_name = 'lead_consent' and sql is not null`.execute(
        db,
      );
      let ddl = table.rows[0].sql;
      const re = /way in \('visit', 'phone', 'online', 'sms_reply', 'link'\)/i;
      if (!re.test(ddl)) throw new Error(`lead_consent.way: check not found in ${ddl}`);
      ddl = ddl.replace(re, ways).replace(/^create table\s+"?lead_consent"?/i, 'create table "lead_consent_new"');
      await sql.raw(ddl).execute(db);
      await sql`insert into lead_consent_new select * from lead_consent`.execute(db);
      await sql`drop table lead_consent`.execute(db);
      await sql`alter table lead_consent_new rename to lead_consent`.execute(db);
      for (const i of indexes.rows) await sql.raw(i.sql).execute(db);
    },
  };
}
