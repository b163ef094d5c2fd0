import type { Kysely } from 'kysely';

/**
 * Secrets of the installation that every instance must share (issue 32): `altcha`, the HMAC key
 * that signs the members' proof-of-work challenges. A row is made once, by whichever instance needs
 * it first (insert if absent, then read), never answered by any call.
 */
export function appSecret() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('app_secret')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
