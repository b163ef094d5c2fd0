import type { z } from 'zod';
import { Msg } from './messages.ts';

/**
 * Who may make a call: `public` needs nothing; `staff` needs a logged-in staff member;
 * `store` also resolves the store the call acts in (first post, X-Store-Id header or payload storeId);
 * `member` needs a member session (the members' channel; it acts in the member's store).
 */
export type CallAuth = 'public' | 'staff' | 'store' | 'member';

/** A staff member's role in a store (a post): 店长, 前台, 老师. */
export const STAFF_ROLES = ['manager', 'desk', 'teacher'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const ROLE_LABEL: Record<StaffRole, string> = { manager: '店长', desk: '前台', teacher: '老师' };

/** Who may make a store call. Managers may make every call. */
export const Roles = {
  /** Managers only: store settings, booking policy, deduction mode, card products, staff, audit, refunds, reports. */
  manager: ['manager'],
  /** Managers and the front desk: daily operations. */
  desk: ['manager', 'desk'],
  /** Everyone, teachers too: teachers only for their own sessions (see `teacherOwns`) or reference data. */
  all: ['manager', 'desk', 'teacher'],
} as const satisfies Record<string, readonly StaffRole[]>;

/** Who sees full mobiles in a call's answer besides managers (`fullMobiles`). */
export const FullMobiles = {
  /** The member's own page: the desk calls or messages the member from it. */
  desk: ['desk'],
  /** A lead's follow-up: every seller (the desk and teachers may own leads) phones the lead. */
  sellers: ['desk', 'teacher'],
  /** Teachers' own work numbers (not members'): the desk calls a substitute; a teacher sees only their own. */
  colleagues: ['desk', 'teacher'],
} as const satisfies Record<string, readonly StaffRole[]>;

export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  path: string;
  /**
   * What the call does: `read` answers without changing anything; `write` changes something and so
   * leaves an audit entry (unless `audit: false`). Declared by each call, never guessed from its path.
   */
  kind: 'read' | 'write';
  auth: CallAuth;
  req: Req;
  res: Res;
  /** Body limit in bytes when it differs from the default. */
  bodyLimit?: number;
  /** The call also accepts application/x-www-form-urlencoded bodies. */
  form?: boolean;
  /**
   * A public call naming a store by `storeId` that answers what the store shows anyone (the members'
   * landing page: its name, logo, policy and timetable): the scans do not count that as a leak.
   */
  publicStore?: boolean;
  /**
   * Which roles may make the call (store calls must say; the route loop answers 403 to the others
   * before the handler runs).
   */
  roles?: readonly StaffRole[];
  /**
   * For a call teachers may make on one session: the payload field naming it (a session id, or a
   * pending booking's or a booking's id); a teacher may only name a session they teach.
   */
  teacherOwns?: { field: string; via: 'session' | 'pending' | 'reservation' };
  /**
   * Who sees the members' full mobiles in the answer besides managers: the roles whose work on this
   * call needs them (the member's own page for the desk; a lead's follow-up for its seller). Every
   * other answer to the desk or a teacher carries mobiles masked (138****5678), by the route loop.
   */
  fullMobiles?: readonly StaffRole[];
  /** `false` for the few writes that are not business changes (logging in and out): no audit entry. */
  audit?: false;
  /** Payload fields that name ids of the acting store, for the tenant-isolation matrix. */
  idFields?: readonly string[];
  /** What the call does, in staff words (the API reference lists it). */
  summary?: string;
  /** A request the call accepts, shown in the API reference; a test parses it with `req`. */
  example?: z.input<Req>;
  /**
   * The failures of the call's own rules (404 for a missing thing, 409 for a refused change, 400 for
   * a check the schema cannot make). The failures every call shares are derived: see callErrors.
   */
  errors?: readonly CallError[];
}

/** One failure a call can answer: HTTP status (= envelope code) and Chinese message. */
export interface CallError {
  status: 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 503;
  /** The message as answered; a part filled in at run time is written `{…}`. */
  msg: string;
}

/** Shorthands for the `errors` list of a call. */
export const fails = {
  badRequest: (...msgs: string[]): CallError[] => msgs.map((msg) => ({ status: 400, msg })),
  notFound: (...whats: string[]): CallError[] => whats.map((what) => ({ status: 404, msg: Msg.notFound(what) })),
  conflict: (...msgs: string[]): CallError[] => msgs.map((msg) => ({ status: 409, msg })),
} as const;

/** Whether a call changes something and so leaves an audit entry: a write (as it declares) that is audited. */
export function isWriteCall(call: Pick<CallDef, 'kind' | 'audit'>): boolean {
  return call.kind === 'write' && call.audit !== false;
}

export function defineCall<Req extends z.ZodType, Res extends z.ZodType>(def: CallDef<Req, Res>): CallDef<Req, Res> {
  return def;
}

export type ReqOf<C> = C extends CallDef<infer R, z.ZodType> ? z.input<R> : never;
export type ParsedReqOf<C> = C extends CallDef<infer R, z.ZodType> ? z.output<R> : never;
export type ResOf<C> = C extends CallDef<z.ZodType, infer S> ? z.output<S> : never;

export const STORE_API = '/store/api';
