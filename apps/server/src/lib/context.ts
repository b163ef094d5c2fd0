import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Dialect } from '../db/index.ts';
import type { StaffIdentity } from '../auth/identity.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { Events } from './events.ts';

export type { StaffIdentity };
/** A staff member's post in the acting store: role and (a teacher's) teacher. */
export type StaffPost = StaffIdentity['posts'][number];

/** What every feature gets from the app: the database, the configuration, the app's event listeners. */
export interface AppDeps {
  db: Db;
  dialect: Dialect;
  config: Config;
  log: FastifyBaseLogger;
  sessions: SessionStore;
  /** The listeners of this app's features: what a change announces goes to them (`events.emit`). */
  events: Events;
}

export interface StoreScope {
  id: number;
  name: string;
  timezone: string;
}

/** The context of one call: who makes it and in which store it acts. */
export interface CallCtx extends AppDeps {
  req: FastifyRequest;
  reply: FastifyReply;
  /** Present for calls with auth `staff` or `store`. */
  staff: StaffIdentity;
  /** Present for calls with auth `store`: the staff member's post (role) in the acting store. */
  post: StaffPost;
  /** Present for calls with auth `store`, and `member` (the member's store). */
  store: StoreScope;
  /** Present for calls with auth `member`: the member of the session. */
  member: { id: number; name: string; mobile: string };
  /** Present for calls with auth `member`: the id of the member's session (`member_session.id`). */
  memberSessionId: string;
}
