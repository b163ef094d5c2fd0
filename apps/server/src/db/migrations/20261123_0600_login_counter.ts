import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Login limits as one counter row per key (a staff account, a typed name nobody has, a client
 * address): `n` attempts since `started_at`. A login reserves its attempt with one conditional
 * upsert (auth/rate-limit.ts), so concurrent logins on any number of instances can never check more
 * than the limit. Replaces login_failure, whose count-then-insert let concurrent attempts through.
 */
export function loginCounter(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('login_counter')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('started_at', big, (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.dropTable('login_failure').execute();
    },
  };
}
