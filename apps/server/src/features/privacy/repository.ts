import {
  CONSENT_KINDS,
  PendingStatus,
  ReservationStatus,
  WaitStatus,
  type Consent,
  type ConsentKind,
  type ErasureStatus,
} from '@studio/contract';
import { sql } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import { deleteDeclarations } from './health-repository.ts';

/** Consents (member_consent) and requests to delete an account (erasure_request), and the erasure's writes. */

export function insertConsent(
  ex: Executor,
  row: {
    storeId: number;
    memberId: number;
    kind: ConsentKind;
    version: string;
    granted: boolean;
    way: Consent['way'];
    at: string;
  },
) {
  return ex
    .insertInto('memberConsent')
    .values({ ...row, granted: row.granted ? 1 : 0 })
    .execute();
}

/** Every consent of a member, newest first. */
export async function consentsOf(ex: Executor, storeId: number, memberId: number): Promise<Consent[]> {
  const rows = await ex
    .selectFrom('memberConsent')
    .select(['kind', 'granted', 'version', 'way', 'at'])
    .where('storeId', '=', storeId)
    .where('memberId', '=', memberId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, granted: Number(r.granted) === 1 }));
}

/**
 * The store's members (not erased) with their latest marketing consent (null: never asked) and its
 * time: the marketing audience reads them (features/marketing), `mobile` to narrow to one person.
 */
export function membersWithMarketingConsent(ex: Executor, storeId: number, mobile?: string) {
  let q = ex
    .selectFrom('member as m')
    .select(['m.id', 'm.mobile'])
    .select((eb) => {
      const latest = () =>
        eb
          .selectFrom('memberConsent as c')
          .whereRef('c.memberId', '=', 'm.id')
          .where('c.kind', '=', 'marketing')
          .orderBy('c.id', 'desc')
          .limit(1);
      return [latest().select('c.granted').as('granted'), latest().select('c.at').as('at')];
    })
    .where('m.storeId', '=', storeId)
    .where('m.erasedAt', 'is', null);
  if (mobile !== undefined) q = q.where('m.mobile', '=', mobile);
  return q.execute();
}

/** Each kind's latest choice, in the kinds' order. */
export const currentConsents = (history: Consent[]) =>
  CONSENT_KINDS.flatMap((k) => history.find((c) => c.kind === k) ?? []);

export function pendingErasureOf(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('erasureRequest')
    .select(['id', 'requestedAt', 'dueDate'])
    .where('storeId', '=', storeId)
    .where('memberId', '=', memberId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/** A new pending request; null when the member has one already (the partial unique index). */
export async function insertErasureRequest(
  ex: Executor,
  row: { storeId: number; memberId: number; reason: string | null; requestedAt: string; dueDate: string },
): Promise<number | null> {
  try {
    const made = await ex.insertInto('erasureRequest').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(made.id);
  } catch (e) {
    // The partial unique index: the member's pending request exists already.
    if (isUniqueViolation(e)) return null;
    throw e;
  }
}

/** Moves a pending request to `status`; false when it was not pending any more. */
export async function decideErasureRequest(
  ex: Executor,
  storeId: number,
  id: number,
  set: { status: ErasureStatus; decidedAt: string; decidedBy: number | null; note: string | null },
): Promise<boolean> {
  const r = await ex
    .updateTable('erasureRequest')
    .set(set)
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function erasureRequest(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('erasureRequest')
    .select(['id', 'memberId', 'status'])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function erasureRequests(ex: Executor, storeId: number, status: ErasureStatus | null) {
  let q = ex
    .selectFrom('erasureRequest as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .leftJoin('staff as s', 's.id', 'r.decidedBy')
    .select([
      'r.id',
      'r.memberId',
      'm.name as memberName',
      'm.mobile',
      'm.erasedAt',
      'r.reason',
      'r.status',
      'r.requestedAt',
      'r.dueDate',
      'r.decidedAt',
      's.name as decidedByName',
      'r.note',
    ])
    .where('r.storeId', '=', storeId);
  if (status) q = q.where('r.status', '=', status);
  const rows = await q
    .orderBy(sql`case when r.status = 'pending' then 0 else 1 end`)
    .orderBy('r.dueDate')
    .orderBy('r.id', 'desc')
    .execute();
  return rows.map(({ erasedAt, ...r }) => ({ ...r, mobile: erasedAt ? null : r.mobile }));
}

/** The member's bookings, sign-in bookings and queue places of sessions still to start. */
export async function upcomingBookingCount(ex: Executor, storeId: number, memberId: number, now: string) {
  const row = await sql<{ n: number }>`select
      (select count(*) from reservation r join timetable t on t.id = r.timetable_id
        where r.store_id = ${storeId} and r.member_id = ${memberId} and r.status = ${ReservationStatus.BOOKED} and t.start_time > ${now})
    + (select count(*) from pending p join timetable t on t.id = p.timetable_id
        where p.store_id = ${storeId} and p.member_id = ${memberId} and p.status = ${PendingStatus.WAITING} and t.start_time > ${now})
    + (select count(*) from waitlist w
        where w.store_id = ${storeId} and w.member_id = ${memberId} and w.status = ${WaitStatus.WAITING}) as n`.execute(
    ex,
  );
  return Number(row.rows[0]?.n ?? 0);
}

/** The member's cards (held now or before a 转卡: a card's ledger names it). */
export async function cardIdsOf(ex: Executor, storeId: number, memberId: number): Promise<number[]> {
  const rows = await ex
    .selectFrom('memberCard')
    .select('id')
    .where('storeId', '=', storeId)
    .where('memberId', '=', memberId)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Text columns of tables whose rows about the member may quote their name or mobile (free text, logs). */
const QUOTING: { table: string; columns: string[]; about: 'member' | 'card' | 'memberOrCard' | 'order' | 'audit' }[] = [
  { table: 'reservation', columns: ['remark', 'waive_reason'], about: 'member' },
  { table: 'pending', columns: ['remark', 'waive_reason'], about: 'member' },
  { table: 'history', columns: ['remark'], about: 'member' },
  { table: 'waitlist', columns: ['skip_reason'], about: 'member' },
  { table: 'card_ledger', columns: ['remark'], about: 'memberOrCard' },
  { table: 'card_payment', columns: ['remark'], about: 'card' },
  { table: 'card_leave', columns: ['reason', 'decide_remark'], about: 'memberOrCard' },
  { table: 'pay_order', columns: ['description', 'exception_reason'], about: 'member' },
  { table: 'pay_refund', columns: ['reason', 'fail_reason'], about: 'card' },
  {
    table: 'audit_log',
    columns: ['actor_name', 'target', 'summary', 'before_json', 'after_json', 'undo_json'],
    about: 'audit',
  },
];

/**
 * Erases a member's identity from the store (their request approved): their personal fields, their
 * lead's, the quotes of their name and mobile in the records kept (remarks, orders, the audit log,
 * messages), their health declarations, logins, calendar feed and message settings. The records themselves (cards,
 * ledger, payments, orders, bookings) stay, pointing at a member who is now nobody.
 */
export async function eraseMember(
  ex: Executor,
  o: {
    storeId: number;
    memberId: number;
    name: string;
    mobile: string;
    cardIds: number[];
    erasedName: string;
    at: string;
  },
): Promise<void> {
  const { storeId, memberId } = o;
  const cards = o.cardIds.length ? sql.join(o.cardIds.map((v) => sql.lit(v))) : sql`null`;
  const leads = await ex
    .selectFrom('lead')
    .select('id')
    .where('storeId', '=', storeId)
    .where((eb) => eb.or([eb('mobile', '=', o.mobile), eb('convertedMemberId', '=', memberId)]))
    .execute();
  const leadIds = leads.length ? sql.join(leads.map((l) => sql.lit(Number(l.id)))) : sql`null`;
  const where = {
    member: sql`member_id = ${memberId}`,
    card: sql`member_card_id in (${cards})`,
    memberOrCard: sql`(member_id = ${memberId} or member_card_id in (${cards}))`,
    order: sql`member_id = ${memberId}`,
    audit: sql`(member_id = ${memberId} or id in (select audit_id from audit_target where store_id = ${storeId} and ((type = 'member' and ref_id = ${memberId}) or (type = 'lead' and ref_id in (${leadIds})))))`,
  };
  // A quote of the mobile anywhere in the store's records, of the name in the member's own.
  const quotes: [string, string][] = [[o.mobile, '（已删除）']];
  if (o.name.trim()) quotes.push([o.name, o.erasedName]);
  for (const q of QUOTING) {
    // The audit log's entries change only so, stamped (its trigger refuses any other change).
    const stamp = q.table === 'audit_log' ? sql`, redacted_at = ${o.at}` : sql``;
    for (const col of q.columns) {
      for (const [text, by] of quotes) {
        await sql`update ${sql.table(q.table)} set ${sql.ref(col)} = replace(${sql.ref(col)}, ${text}, ${by})${stamp}
          where store_id = ${storeId} and ${where[q.about]} and ${sql.ref(col)} like ${`%${text}%`}`.execute(ex);
      }
    }
  }
  // The outbox's messages (sent or not) quote them by mobile or name in their payload.
  for (const [text, by] of quotes) {
    await sql`update outbox set payload = replace(payload, ${text}, ${by})
      where store_id = ${storeId} and payload like ${`%${text}%`} and (payload like ${`%${o.mobile}%`} or payload like ${`%"memberId":${memberId}%`})`.execute(
      ex,
    );
  }
  await sql`update notify_log set payload = '{}' where store_id = ${storeId} and member_id = ${memberId}`.execute(ex);
  // Their lead (by mobile, or the one their first card converted): no name, mobile or notes left.
  for (const { id } of leads) {
    await ex
      .updateTable('lead')
      .set({
        name: o.erasedName,
        mobile: `注销${id}`,
        interests: null,
        notes: null,
        preferredTimes: null,
        lostReason: null,
      })
      .where('id', '=', id)
      .execute();
    await ex.updateTable('leadFollowUp').set({ note: '（已删除）' }).where('leadId', '=', id).execute();
  }
  await deleteDeclarations(ex, storeId, memberId);
  await ex.deleteFrom('memberSession').where('memberId', '=', memberId).execute();
  await ex.deleteFrom('memberLoginCode').where('memberId', '=', memberId).execute();
  await ex.deleteFrom('wechatOauthState').where('memberId', '=', memberId).execute();
  await ex.deleteFrom('notifyPref').where('storeId', '=', storeId).where('memberId', '=', memberId).execute();
  await ex.deleteFrom('calendarFeed').where('owner', '=', 'member').where('ownerId', '=', memberId).execute();
  await ex
    .updateTable('member')
    .set({
      name: o.erasedName,
      mobile: `注销${memberId}`,
      gender: 0,
      birthday: null,
      remark: null,
      wechatOpenid: null,
      erasedAt: o.at,
    })
    .where('storeId', '=', storeId)
    .where('id', '=', memberId)
    .execute();
}
