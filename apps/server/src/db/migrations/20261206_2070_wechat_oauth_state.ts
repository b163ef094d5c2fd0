import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * WeChat's web authorisation state (issue 42, item 8): `wechat_oauth_state` holds each state the
 * server gave a signed-in member before sending them to WeChat's authorisation: random, tied to the
 * member's session (`session_id`, as `member_session.id`), short-lived (`expires_at`), and taken once
 * by a guarded DELETE when the code comes back (binding the openid, or paying with the code). A code
 * that comes back with any other state binds nothing.
 */
export function wechatOauthState(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('wechat_oauth_state')
        .addColumn('state', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('expires_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('wechat_oauth_state_expires').on('wechat_oauth_state').column('expires_at').execute();
    },
  };
}
