import { BOOKED_TYPES, OperateType, PendingStatus, ReservationStatus, WaitStatus } from '@studio/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../src/db/index.ts';
import type { Database } from '../src/db/schema.ts';
import { LEDGER_TOTAL_KINDS, overLimitCards, weekDays } from '../src/features/cards/public.ts';
import { OPENING_REMARK } from '../src/features/import-export/public.ts';
import { signedContracts, verifyContract } from '../src/features/contracts/public.ts';
import { groupBy } from '../src/lib/group.ts';
import { localDateTime } from '../src/lib/time.ts';

const LIVE = [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN];
const HELD = [PendingStatus.WAITING, PendingStatus.SIGNED_IN, PendingStatus.NO_SHOW];
/** Pendings that must not outlive their session's deletion (a no-show's record stays). */
const HELD_LIVE = [PendingStatus.WAITING, PendingStatus.SIGNED_IN];
const BOOK_TYPES: number[] = [...BOOKED_TYPES, OperateType.SIGNED_IN, OperateType.SELF_CHECKED_IN];
/** A late cancel (迟到取消) is a cancel too: of a booking (which keeps its deduction) or of a pending. */
const CANCEL_TYPES: number[] = [OperateType.USER_CANCELLED, OperateType.ADMIN_CANCELLED, OperateType.LATE_CANCEL];

function sumBy(rows: { id: number | null; n: number | string | null }[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of rows) if (r.id !== null) m.set(r.id, (m.get(r.id) ?? 0) + Number(r.n ?? 0));
  return m;
}

/**
 * Checks the booking engine's invariants (for one store, or all); answers one line per breach,
 * empty when all hold. Definitions:
 * - seats: a live session's realCount = studentCount of its live reservations (booked or signed
 *   in) that did not come from a pending + studentCount of its pendings waiting or signed in (a
 *   signed-in pending's seat is counted once, through the pending) + one for each lead's trial
 *   booked or attended (体验课); 0 <= realCount <= capacity.
 *   A no-show (pending status 4) keeps its seat. A deleted session has realCount 0, no live
 *   reservation and no waiting or signed-in pending.
 * - money: for every member card 0 <= usedCount <= totalCount, and its ledger deduct + refund
 *   amounts add up to the usedCount of its live reservations (usedCount itself may be higher: cards
 *   can be issued partly used); for every reservation its ledger adds up to its usedCount while it
 *   is live and to 0 once cancelled (so a refund happened exactly once), except a member's late
 *   cancel that kept its deduction (迟到取消: marked on the row and by history type 5), whose ledger
 *   stays at its usedCount until staff waive it (a `waive` entry of the booking brings it to 0).
 * - sales: a card issued through the desk has totalCount = issue + top-ups - card/top-up refunds
 *   + 转介绍奖励 given - taken back.
 * - history: every reservation and pending has a booking row; every cancelled one a cancel row
 *   (a cancel, or a late cancel that kept the deduction). A member's late cancel of a pending that
 *   charged its card is kept as a cancelled, forfeited reservation of that pending: its booking row
 *   is the pending's.
 * - waitlist: a session's waitCount = its waiting rows; no member waits for a session in which
 *   they hold a live booking or pending; a promoted wait names its booking or pending.
 * - a card's life (issue 29): see cardLifeProblems.
 */
export async function checkInvariants(db: Db, storeId?: number): Promise<string[]> {
  // One snapshot for every read: between two separate reads a change committed meanwhile (a refund
  // settled by the provider's notification, a booking of another instance) would show half done,
  // a refund still open with its payment already recorded. Read-only, so it waits on no writer.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((tx) => readInvariants(tx, storeId));
}

async function readInvariants(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);

  const sessions = await scoped(
    db.selectFrom('timetable').select(['id', 'realCount', 'reservableCount', 'deleted']),
    'storeId',
  ).execute();
  const direct = sumBy(
    await scoped(
      db
        .selectFrom('reservation')
        .select((eb) => ['timetableId as id', eb.fn.sum<number>('studentCount').as('n')])
        .where('status', 'in', LIVE)
        .where('pendingId', 'is', null)
        .groupBy('timetableId'),
      'storeId',
    ).execute(),
  );
  const heldBy = async (statuses: number[]) =>
    sumBy(
      await scoped(
        db
          .selectFrom('pending')
          .select((eb) => ['timetableId as id', eb.fn.sum<number>('studentCount').as('n')])
          .where('status', 'in', statuses)
          .groupBy('timetableId'),
        'storeId',
      ).execute(),
    );
  const held = await heldBy(HELD);
  const heldLive = await heldBy(HELD_LIVE);
  // 体验课 (issue 44 item 3): a lead's trial booked or attended holds one seat, no card; a paid trial
  // (riding on its member's booking with a 体验卡, `member_id`) none of its own.
  const trialSeats = sumBy(
    await scoped(
      db
        .selectFrom('leadTrial')
        .select((eb) => ['timetableId as id', eb.fn.countAll<number>().as('n')])
        .where('status', 'in', [1, 2])
        .where('memberId', 'is', null)
        .groupBy('timetableId'),
      'storeId',
    ).execute(),
  );
  for (const s of sessions) {
    const trials = trialSeats.get(s.id) ?? 0;
    const expected = (direct.get(s.id) ?? 0) + (held.get(s.id) ?? 0) + trials;
    if (s.deleted && (s.realCount !== 0 || (direct.get(s.id) ?? 0) + (heldLive.get(s.id) ?? 0) + trials !== 0)) {
      out.push(`deleted session ${s.id}: realCount ${s.realCount}, live seats ${expected}`);
    }
    if (!s.deleted && s.realCount !== expected) out.push(`session ${s.id}: realCount ${s.realCount} != ${expected}`);
    if (s.realCount < 0 || s.realCount > s.reservableCount) {
      out.push(`session ${s.id}: realCount ${s.realCount} outside 0..${s.reservableCount}`);
    }
  }

  const cards = await scoped(
    db.selectFrom('memberCard').select(['id', 'usedCount', 'totalCount']),
    'storeId',
  ).execute();
  // Late cancels that kept their deduction (迟到取消): cancelled, yet charged like a live booking
  // until staff waive it (then refunded once, like a cancel). Marked on the row and in history.
  const lateRows = await scoped(
    db
      .selectFrom('reservation as r')
      .leftJoin('history as h', (j) =>
        j.onRef('h.reservationId', '=', 'r.id').on('h.operateType', '=', OperateType.LATE_CANCEL),
      )
      .select(['r.id', 'r.memberCardId', 'r.usedCount', 'r.status', 'r.forfeited', 'r.waivedTime', 'h.id as lateId'])
      .where((eb) => eb.or([eb('r.forfeited', '=', 1), eb('h.id', 'is not', null)])),
    'r.storeId',
  ).execute();
  for (const r of lateRows) {
    if (!r.forfeited || r.lateId === null || r.status !== ReservationStatus.CANCELLED) {
      out.push(
        `reservation ${r.id}: late cancel marked ${r.forfeited}, history ${r.lateId ?? 'none'}, status ${r.status}`,
      );
    }
  }
  const lateIds = new Set(lateRows.map((r) => r.id));
  const forfeited = lateRows.filter((r) => r.waivedTime === null);
  const keptOf = new Map(forfeited.map((r) => [r.id, Number(r.usedCount)]));
  const liveUsed = sumBy([
    ...(await scoped(
      db
        .selectFrom('reservation')
        .select((eb) => ['memberCardId as id', eb.fn.sum<number>('usedCount').as('n')])
        .where('status', 'in', LIVE)
        .groupBy('memberCardId'),
      'storeId',
    ).execute()),
    ...forfeited.map((r) => ({ id: r.memberCardId, n: r.usedCount })),
  ]);
  // A booking's own ledger: its deduction, its refund, and a waiver of its late cancel.
  const bookingKinds = (eb: ExpressionBuilder<Database, 'cardLedger'>) =>
    eb.or([
      eb('kind', 'in', ['deduct', 'refund']),
      eb.and([eb('kind', '=', 'waive'), eb('reservationId', 'is not', null)]),
    ]);
  const ledger = sumBy(
    await scoped(
      db
        .selectFrom('cardLedger')
        .select((eb) => ['memberCardId as id', eb.fn.sum<number>('amount').as('n')])
        .where(bookingKinds)
        .groupBy('memberCardId'),
      'storeId',
    ).execute(),
  );
  // Cards issued through the desk (they have an `issue` entry): the balance's total is the issue
  // plus top-ups less what card and top-up refunds took out, so no sale or refund is missing or doubled.
  const totals = await scoped(
    db
      .selectFrom('cardLedger')
      .select((eb) => [
        'memberCardId as id',
        eb.fn.sum<number>('amount').as('n'),
        eb.fn.sum<number>(eb.case().when('kind', '=', 'issue').then(1).else(0).end()).as('issued'),
      ])
      .where('kind', 'in', LEDGER_TOTAL_KINDS)
      .groupBy('memberCardId'),
    'storeId',
  ).execute();
  const issuedTotal = new Map(totals.filter((t) => Number(t.issued) > 0).map((t) => [t.id, Number(t.n)]));
  for (const c of cards) {
    const used = Number(c.usedCount);
    const issued = issuedTotal.get(c.id);
    if (issued !== undefined && issued !== Number(c.totalCount)) {
      out.push(`card ${c.id}: totalCount ${c.totalCount} != issue + top-ups - refunds ${issued}`);
    }
    const total = Number(c.totalCount);
    if (used < 0 || used > total) out.push(`card ${c.id}: usedCount ${used} outside 0..${total}`);
    const live = liveUsed.get(c.id) ?? 0;
    const booked = ledger.get(c.id) ?? 0;
    if (booked !== live) out.push(`card ${c.id}: ledger deduct+refund ${booked} != live reservations ${live}`);
    if (used < live) out.push(`card ${c.id}: usedCount ${used} < live reservations ${live}`);
  }

  const reservations = await scoped(
    db.selectFrom('reservation').select(['id', 'status', 'usedCount', 'timetableId', 'memberId', 'pendingId']),
    'storeId',
  ).execute();
  const perReservation = sumBy(
    await scoped(
      db
        .selectFrom('cardLedger')
        .select((eb) => ['reservationId as id', eb.fn.sum<number>('amount').as('n')])
        .where(bookingKinds)
        .groupBy('reservationId'),
      'storeId',
    ).execute(),
  );
  const trail = await scoped(
    db.selectFrom('history').select(['reservationId', 'pendingId', 'operateType']),
    'storeId',
  ).execute();
  const booked = new Set<string>();
  const cancelled = new Set<string>();
  for (const h of trail) {
    const set = BOOK_TYPES.includes(h.operateType) ? booked : CANCEL_TYPES.includes(h.operateType) ? cancelled : null;
    if (!set) continue;
    if (h.reservationId !== null) set.add(`r${h.reservationId}`);
    if (h.pendingId !== null && (h.reservationId === null || set === cancelled)) set.add(`p${h.pendingId}`);
  }
  const deletedIds = new Set(sessions.filter((s) => s.deleted).map((s) => s.id));
  for (const r of reservations) {
    const live = LIVE.includes(r.status as 1 | 2);
    const want = live ? Number(r.usedCount) : (keptOf.get(r.id) ?? 0);
    const got = perReservation.get(r.id) ?? 0;
    if (got !== want) out.push(`reservation ${r.id}: ledger ${got} != ${want}`);
    const pendingLate = r.pendingId !== null && lateIds.has(r.id) && booked.has(`p${r.pendingId}`);
    if (!booked.has(`r${r.id}`) && !pendingLate) out.push(`reservation ${r.id}: no booking history`);
    if (!live && !cancelled.has(`r${r.id}`) && !lateIds.has(r.id))
      out.push(`reservation ${r.id}: cancelled without history`);
    if (live && deletedIds.has(r.timetableId))
      out.push(`reservation ${r.id}: live on deleted session ${r.timetableId}`);
  }
  const pendings = await scoped(db.selectFrom('pending').select(['id', 'status']), 'storeId').execute();
  for (const p of pendings) {
    if (!booked.has(`p${p.id}`)) out.push(`pending ${p.id}: no booking history`);
    if (p.status === PendingStatus.CANCELLED && !cancelled.has(`p${p.id}`)) {
      out.push(`pending ${p.id}: cancelled without history`);
    }
  }

  // No-shows: per card and session, the ledger's no_show + waive entries (of no booking) equal the fees of the
  // no-shows not waived (charged once, refunded at most once).
  const noShowLedger = await scoped(
    db
      .selectFrom('cardLedger')
      .select((eb) => ['memberCardId', 'timetableId', eb.fn.sum<number>('amount').as('n')])
      .where('kind', 'in', ['no_show', 'waive'])
      .where('reservationId', 'is', null)
      .groupBy(['memberCardId', 'timetableId']),
    'storeId',
  ).execute();
  const fees = new Map<string, number>();
  for (const p of await scoped(
    db
      .selectFrom('pending')
      .select(['noShowCardId', 'timetableId', 'noShowFee', 'waivedTime'])
      .where('status', '=', PendingStatus.NO_SHOW),
    'storeId',
  ).execute()) {
    if (p.noShowCardId === null || p.waivedTime !== null) continue;
    const k = `${p.noShowCardId}:${p.timetableId}`;
    fees.set(k, (fees.get(k) ?? 0) + Number(p.noShowFee ?? 0));
  }
  const seen = new Set<string>();
  for (const l of noShowLedger) {
    const k = `${l.memberCardId}:${l.timetableId}`;
    seen.add(k);
    if (Number(l.n) !== (fees.get(k) ?? 0))
      out.push(`card ${l.memberCardId}, session ${l.timetableId}: no-show ledger ${l.n} != fees ${fees.get(k) ?? 0}`);
  }
  for (const [k, fee] of fees) if (!seen.has(k) && fee !== 0) out.push(`no-show ${k}: fee ${fee} not on the ledger`);

  // Waitlist: a session's waitCount is its waiting rows; nobody waits for a session in which they
  // hold a live booking or pending; a promoted wait names the booking or pending it became.
  const waits = await scoped(
    db.selectFrom('waitlist').select(['id', 'timetableId', 'memberId', 'status', 'reservationId', 'pendingId']),
    'storeId',
  ).execute();
  const holding = new Set<string>();
  for (const r of reservations) if (LIVE.includes(r.status as 1 | 2)) holding.add(`${r.timetableId}:${r.memberId}`);
  const heldPendings = await scoped(
    db.selectFrom('pending').select(['timetableId', 'memberId']).where('status', 'in', HELD),
    'storeId',
  ).execute();
  for (const p of heldPendings) holding.add(`${p.timetableId}:${p.memberId}`);
  const waiting = new Map<number, number>();
  for (const w of waits) {
    if (w.status === WaitStatus.WAITING) {
      waiting.set(w.timetableId, (waiting.get(w.timetableId) ?? 0) + 1);
      if (holding.has(`${w.timetableId}:${w.memberId}`)) {
        out.push(`wait ${w.id}: member ${w.memberId} waits for session ${w.timetableId} they hold a seat in`);
      }
    }
    if (w.status === WaitStatus.PROMOTED && w.reservationId === null && w.pendingId === null) {
      out.push(`wait ${w.id}: promoted to nothing`);
    }
  }
  const counted = await scoped(db.selectFrom('timetable').select(['id', 'waitCount']), 'storeId').execute();
  for (const t of counted) {
    if (t.waitCount !== (waiting.get(t.id) ?? 0)) {
      out.push(`session ${t.id}: waitCount ${t.waitCount} != ${waiting.get(t.id) ?? 0} waiting`);
    }
  }
  out.push(...(await onlineOrderProblems(db, storeId)));
  out.push(...(await capProblems(db, storeId)));
  out.push(...(await shareProblems(db, storeId)));
  out.push(...(await prepaidProblems(db, storeId)));
  out.push(...(await leadProblems(db, storeId)));
  out.push(...(await referralProblems(db, storeId)));
  out.push(...(await lessonProblems(db, storeId)));
  out.push(...(await contractProblems(db, storeId)));
  return out;
}

/**
 * 电子合同 (issue 45): every card sold (money taken for its sale, at the desk or online) since the
 * store's contracts began (its first contract) has exactly one contract, signed or 待签约 (the unique
 * index keeps it at most one); every signed one verifies (its PDF's SHA-256, and the seal over its
 * stored fields and terms: features/contracts `verifyContract`).
 */
async function contractProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const rows = await db
    .selectFrom('cardContract')
    .select(['storeId', 'memberCardId', 'createdAt'])
    .$if(storeId !== undefined, (q) => q.where('storeId', '=', storeId!))
    .execute();
  const began = new Map<number, string>();
  for (const r of rows)
    if (!began.has(r.storeId) || r.createdAt < began.get(r.storeId)!) began.set(r.storeId, r.createdAt);
  const withContract = new Set(rows.map((r) => Number(r.memberCardId)));
  const sold = await db
    .selectFrom('cardPayment as cp')
    .innerJoin('memberCard as mc', 'mc.id', 'cp.memberCardId')
    .select(['mc.id', 'mc.storeId', 'mc.createdAt'])
    .where('cp.kind', '=', 'sale')
    .$if(storeId !== undefined, (q) => q.where('mc.storeId', '=', storeId!))
    .execute();
  for (const c of sold) {
    const from = began.get(c.storeId);
    if (from !== undefined && c.createdAt >= from && !withContract.has(Number(c.id))) {
      out.push(`card ${c.id}: sold without a contract`);
    }
  }
  for (const c of await signedContracts(db, storeId)) {
    const problems = verifyContract(c, c.pdf ? Buffer.from(c.pdf) : null);
    for (const p of problems) out.push(`contract of card ${c.memberCardId}: ${p}`);
  }
  return out;
}

/**
 * Prepaid limits (issue 45, item 4): no card sold since the store's limits took effect is over a
 * card's own limit (a member's total may grow past the limit only by cards sold before it). A card
 * imported (its opening entry 导入期初余额) was sold elsewhere before: the import warns of it.
 */
async function prepaidProblems(db: Db, storeId?: number): Promise<string[]> {
  let q = db.selectFrom('store').select(['id', 'timezone']);
  if (storeId !== undefined) q = q.where('id', '=', storeId);
  const stores = await q.execute();
  const out: string[] = [];
  for (const s of stores) {
    const { rule, list } = await overLimitCards(db, s.id, localDateTime(s.timezone).slice(0, 10));
    const imported = new Set(
      (
        await db
          .selectFrom('cardLedger')
          .select('memberCardId')
          .where('storeId', '=', s.id)
          .where('kind', '=', 'issue')
          .where('remark', '=', OPENING_REMARK)
          .execute()
      ).map((r) => r.memberCardId),
    );
    for (const o of list) {
      if (rule.since !== null && o.card.createdAt > rule.since && o.cardOver.length && !imported.has(o.card.id)) {
        out.push(
          `card ${o.card.id}: sold ${o.card.createdAt}, after the limits of ${rule.since}, yet ${o.cardOver.join('; ')}`,
        );
      }
    }
  }
  return out;
}

/**
 * 潜客 (issue 44): a lead is 已成交 exactly when it names the card that converted it, and that card
 * was sold to the same person: a card of the lead's store, issued (its ledger's `issue`) to the
 * member it names (the holder now, or before a 转卡), who is of the same store and holds the lead's
 * mobile. One lead per store and mobile.
 */
async function leadProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);
  const leads = await scoped(
    db
      .selectFrom('lead as l')
      .leftJoin('memberCard as mc', 'mc.id', 'l.convertedCardId')
      .leftJoin('member as m', 'm.id', 'l.convertedMemberId')
      .select([
        'l.id',
        'l.storeId',
        'l.mobile',
        'l.stage',
        'l.convertedCardId',
        'l.convertedMemberId',
        'l.convertedAt',
        'mc.storeId as cardStore',
        'mc.memberId as holder',
        'mc.transferredAt',
        'm.storeId as memberStore',
        'm.mobile as memberMobile',
      ]),
    'l.storeId',
  ).execute();
  const seen = new Set<string>();
  for (const l of leads) {
    const key = `${l.storeId}/${l.mobile}`;
    if (seen.has(key)) out.push(`lead ${l.id}: a second lead of mobile ${l.mobile} in store ${l.storeId}`);
    seen.add(key);
    if ((l.stage === 'won') !== (l.convertedCardId !== null)) {
      out.push(`lead ${l.id}: stage ${l.stage} with converted card ${l.convertedCardId}`);
    }
    if (l.convertedCardId === null) continue;
    if (l.convertedAt === null) out.push(`lead ${l.id}: converted without a time`);
    if (l.cardStore !== l.storeId) out.push(`lead ${l.id}: card ${l.convertedCardId} of store ${l.cardStore}`);
    if (l.memberStore !== l.storeId || l.memberMobile !== l.mobile) {
      out.push(`lead ${l.id}: converted member ${l.convertedMemberId} is not the store's member of ${l.mobile}`);
    }
    if (l.transferredAt === null && l.holder !== l.convertedMemberId) {
      out.push(`lead ${l.id}: card ${l.convertedCardId} held by member ${l.holder}, not ${l.convertedMemberId}`);
    }
  }
  out.push(...(await trialProblems(db, storeId)));
  return out;
}

/**
 * 体验课 (issue 44 item 3): a trial belongs to a lead and a session of its own store and charges no
 * card (it has none: no ledger or history row names it); a lead holds at most one trial still booked;
 * an attended trial names the teacher its class had, and its lead reached 已体验 (`trial_done_at`)
 * and names a trial teacher; a booked trial is in a live session; a lead 已约体验 by a trial that is
 * still booked has `trial_booked_at`. A paid trial (`member_id`) names a member of the store holding
 * the lead's mobile, who has a booking (or a pending) in its session with a 体验卡 while it is booked.
 */
async function trialProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  let q = db
    .selectFrom('leadTrial as lt')
    .innerJoin('lead as l', 'l.id', 'lt.leadId')
    .innerJoin('timetable as t', 't.id', 'lt.timetableId')
    .select([
      'lt.id',
      'lt.storeId',
      'lt.leadId',
      'lt.status',
      'lt.teacherId',
      'lt.attendedTime',
      'l.storeId as leadStore',
      'l.trialBookedAt',
      'l.trialDoneAt',
      'l.trialTeacherId',
      't.storeId as sessionStore',
      't.deleted',
      'lt.memberId',
      'lt.timetableId',
      'l.mobile',
    ]);
  if (storeId !== undefined) q = q.where('lt.storeId', '=', storeId);
  const live = new Map<number, number>();
  for (const t of await q.execute()) {
    if (t.leadStore !== t.storeId || t.sessionStore !== t.storeId) {
      out.push(`trial ${t.id}: store ${t.storeId}, lead's ${t.leadStore}, session's ${t.sessionStore}`);
    }
    if (t.memberId !== null) out.push(...(await paidTrialProblems(db, t)));
    if (t.status === 1) {
      live.set(t.leadId, (live.get(t.leadId) ?? 0) + 1);
      if (t.deleted) out.push(`trial ${t.id}: booked in deleted session`);
      if (t.trialBookedAt === null) out.push(`trial ${t.id}: lead ${t.leadId} booked without trial_booked_at`);
    }
    if (t.status === 2) {
      if (t.teacherId === null || t.attendedTime === null) out.push(`trial ${t.id}: attended without teacher or time`);
      if (t.trialDoneAt === null || t.trialTeacherId === null) {
        out.push(`trial ${t.id}: attended, lead ${t.leadId} without trial_done_at or trial teacher`);
      }
    }
  }
  for (const [leadId, n] of live) if (n > 1) out.push(`lead ${leadId}: ${n} trials booked at once`);
  return out;
}

/** A paid trial's member: of the store, holding the lead's mobile; while booked, their live booking in its session is on a 体验卡. */
async function paidTrialProblems(
  db: Db,
  t: { id: number; storeId: number; status: number; memberId: number | null; timetableId: number; mobile: string },
): Promise<string[]> {
  const m = await db
    .selectFrom('member')
    .select(['storeId', 'mobile'])
    .where('id', '=', t.memberId!)
    .executeTakeFirst();
  if (!m || m.storeId !== t.storeId || m.mobile !== t.mobile)
    return [`trial ${t.id}: member ${t.memberId} not the lead's`];
  if (t.status !== 1) return [];
  const onTrialCard = (q: 'reservation' | 'pending') =>
    db
      .selectFrom(`${q} as b` as 'reservation as b')
      .innerJoin('memberCard as mc', 'mc.id', 'b.memberCardId')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select('b.id')
      .where('b.timetableId', '=', t.timetableId)
      .where('b.memberId', '=', t.memberId!)
      // a pending of a no-show stays the trial's (体验课未到)
      .where(
        'b.status',
        'in',
        q === 'reservation' ? [ReservationStatus.BOOKED] : [PendingStatus.WAITING, PendingStatus.NO_SHOW],
      )
      .where('p.trial', '=', 1)
      .executeTakeFirst();
  if (!(await onTrialCard('reservation')) && !(await onTrialCard('pending'))) {
    return [`trial ${t.id}: booked, but member ${t.memberId} holds no booking on a 体验卡 in session ${t.timetableId}`];
  }
  return [];
}

/**
 * 转介绍奖励 (issue 44, item 5): every reward granted or undone has exactly one `referral` ledger entry,
 * the one it names, on its card (a card the referrer held), of its amount (0 for days); an undone one
 * also exactly one `referral_undone` entry of minus that; a pending one none; no `referral` or
 * `referral_undone` entry that no reward names. Its lead is 转介绍 naming the referrer, the friend is
 * the store's member of the lead's mobile and not the referrer.
 */
async function referralProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);
  const rewards = await scoped(
    db
      .selectFrom('referralReward as rr')
      .innerJoin('lead as l', 'l.id', 'rr.leadId')
      .innerJoin('member as f', 'f.id', 'rr.friendMemberId')
      .select([
        'rr.id',
        'rr.status',
        'rr.kind',
        'rr.amount',
        'rr.memberCardId',
        'rr.ledgerId',
        'rr.undoLedgerId',
        'rr.referrerMemberId',
        'rr.friendMemberId',
        'l.referrerMemberId as leadReferrer',
        'l.mobile as leadMobile',
        'f.mobile as friendMobile',
      ]),
    'rr.storeId',
  ).execute();
  const entries = await scoped(
    db
      .selectFrom('cardLedger')
      .select(['id', 'memberCardId', 'kind', 'amount'])
      .where('kind', 'in', ['referral', 'referral_undone']),
    'storeId',
  ).execute();
  const byId = new Map(entries.map((e) => [e.id, e]));
  const named = new Set<number>();
  for (const r of rewards) {
    const amount = r.kind === 'days' ? 0 : Number(r.amount);
    if (r.leadReferrer !== r.referrerMemberId) out.push(`reward ${r.id}: its lead names referrer ${r.leadReferrer}`);
    if (r.friendMobile !== r.leadMobile)
      out.push(`reward ${r.id}: friend ${r.friendMemberId} is not the lead's mobile`);
    if (r.friendMemberId === r.referrerMemberId) out.push(`reward ${r.id}: a self-referral`);
    const check = (id: number | null, kind: string, want: number) => {
      const e = id === null ? undefined : byId.get(id);
      if (!e || e.kind !== kind || e.memberCardId !== r.memberCardId || Number(e.amount) !== want) {
        out.push(`reward ${r.id}: no ${kind} entry of ${want} on card ${r.memberCardId} (${id})`);
      }
      if (id !== null) named.add(id);
    };
    if (r.status === 'pending') {
      if (r.ledgerId !== null || r.undoLedgerId !== null) out.push(`reward ${r.id}: pending with a ledger entry`);
      continue;
    }
    check(r.ledgerId, 'referral', amount);
    if (r.status === 'undone') check(r.undoLedgerId, 'referral_undone', -amount);
    else if (r.undoLedgerId !== null) out.push(`reward ${r.id}: granted with an undo entry`);
  }
  for (const e of entries) if (!named.has(e.id)) out.push(`ledger ${e.id}: a ${e.kind} entry of no reward`);
  return out;
}

/** Pairs of live sessions meeting in time among `rows`, at least one of them a lesson (two group classes are batch's to judge). */
function lessonOverlaps<T extends { id: number; startTime: string; endTime: string; lesson: boolean }>(rows: T[]) {
  const pairs: [T, T][] = [];
  for (const a of rows) {
    if (!a.lesson) continue;
    for (const b of rows) {
      if (b.id === a.id || (b.lesson && b.id < a.id)) continue;
      if (a.startTime < b.endTime && b.startTime < a.endTime) pairs.push([a, b]);
    }
  }
  return pairs;
}

/**
 * Lessons (私教/小班, issue 43), claimed through the schedule's one clash rule: no teacher and no room
 * (an area without rooms under it) holds a lesson and another live session at once; no machine is
 * used by more members at once than the store has (the booked members x per-member use of the live
 * lessons in use at each lesson's start); every lesson booking taught or late-cancelled (live, or
 * cancelled keeping its deduction and not waived) was deducted exactly once: one charge on the
 * card's ledger (a deduction, or the late cancel's charge of a pending), of what the booking took.
 */
async function lessonProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const sessions = (
    await db
      .selectFrom('timetable as t')
      .innerJoin('course as c', 'c.id', 't.courseId')
      .select(['t.id', 't.teacherId', 't.areaId', 't.courseId', 't.startTime', 't.endTime', 't.realCount', 'c.kind'])
      .where('t.deleted', '=', 0)
      .$if(storeId !== undefined, (q) => q.where('t.storeId', '=', storeId!))
      .execute()
  ).map((s) => ({ ...s, lesson: s.kind !== 'group' }));
  if (!sessions.some((s) => s.lesson)) return out;
  const parents = new Set(
    (await db.selectFrom('area').select('parentId').where('parentId', 'is not', null).execute()).map((a) => a.parentId),
  );
  const by = (key: (s: (typeof sessions)[number]) => number | null) => {
    const m = new Map<number, typeof sessions>();
    for (const s of sessions) {
      const k = key(s);
      if (k !== null) m.set(k, [...(m.get(k) ?? []), s]);
    }
    return m;
  };
  for (const [teacherId, rows] of by((s) => s.teacherId)) {
    for (const [a, b] of lessonOverlaps(rows)) out.push(`teacher ${teacherId}: sessions ${a.id} and ${b.id} overlap`);
  }
  for (const [areaId, rows] of by((s) => (s.areaId !== null && !parents.has(s.areaId) ? s.areaId : null))) {
    for (const [a, b] of lessonOverlaps(rows)) out.push(`room ${areaId}: sessions ${a.id} and ${b.id} overlap`);
  }
  const uses = await db
    .selectFrom('lessonEquipment as le')
    .innerJoin('equipment as e', 'e.id', 'le.equipmentId')
    .select(['le.courseId', 'le.equipmentId', 'le.perMember', 'e.count'])
    .$if(storeId !== undefined, (q) => q.where('le.storeId', '=', storeId!))
    .execute();
  for (const [equipmentId, perCourse] of groupBy(uses, (u) => u.equipmentId)) {
    const claims = sessions.flatMap((s) => {
      const u = perCourse.find((x) => x.courseId === s.courseId);
      return u ? [{ ...s, units: Number(s.realCount) * u.perMember }] : [];
    });
    for (const c of claims) {
      const used = claims
        .filter((x) => x.startTime <= c.startTime && x.endTime > c.startTime)
        .reduce((n, x) => n + x.units, 0);
      if (used > perCourse[0].count) {
        out.push(`equipment ${equipmentId}: ${used} in use at ${c.startTime} > ${perCourse[0].count}`);
      }
    }
  }
  const lessonIds = sessions.filter((s) => s.lesson).map((s) => s.id);
  const consumed = await db
    .selectFrom('reservation as r')
    .select((eb) => [
      'r.id',
      'r.usedCount',
      eb
        .selectFrom('cardLedger as l')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('l.reservationId', '=', 'r.id')
        .where('l.kind', '=', 'deduct')
        .as('charges'),
      eb
        .selectFrom('cardLedger as l')
        .select((e) => e.fn.sum<number>('l.amount').as('n'))
        .whereRef('l.reservationId', '=', 'r.id')
        .where('l.kind', '=', 'deduct')
        .as('charged'),
    ])
    .where('r.timetableId', 'in', lessonIds)
    .where((eb) =>
      eb.or([eb('r.status', 'in', LIVE), eb.and([eb('r.forfeited', '=', 1), eb('r.waivedTime', 'is', null)])]),
    )
    .execute();
  for (const r of consumed) {
    if (Number(r.charges) !== 1 || Number(r.charged) !== Number(r.usedCount)) {
      out.push(`lesson booking ${r.id}: ${r.charges} charge(s) of ${r.charged}, took ${r.usedCount}`);
    }
  }
  return out;
}

/**
 * 多人共享 (issue 29, item 6): a card's `shared_with` is its `card_share` rows in order, none of them
 * its holder or a member of another store; a charge's ledger entry names the member whose booking it is.
 */
async function shareProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);
  const cards = await scoped(
    db.selectFrom('memberCard').select(['id', 'memberId', 'storeId', 'sharedWith']),
    'storeId',
  ).execute();
  const rows = await scoped(
    db
      .selectFrom('cardShare as cs')
      .innerJoin('member as m', 'm.id', 'cs.memberId')
      .select(['cs.memberCardId', 'cs.memberId', 'cs.storeId', 'm.storeId as memberStore'])
      .orderBy('cs.id'),
    'cs.storeId',
  ).execute();
  const listed = new Map<number, number[]>();
  for (const r of rows) {
    listed.set(r.memberCardId, [...(listed.get(r.memberCardId) ?? []), r.memberId]);
    if (r.memberStore !== r.storeId)
      out.push(`card ${r.memberCardId}: shared with member ${r.memberId} of another store`);
  }
  for (const c of cards) {
    const want = JSON.stringify(listed.get(c.id) ?? []);
    if (c.sharedWith !== want) out.push(`card ${c.id}: shared_with ${c.sharedWith} != its list ${want}`);
    if ((listed.get(c.id) ?? []).includes(c.memberId)) out.push(`card ${c.id}: shared with its own holder`);
  }
  // Every charge for a class names who booked it, and it is the booking's member.
  const named = await scoped(
    db
      .selectFrom('cardLedger as l')
      .innerJoin('reservation as r', 'r.id', 'l.reservationId')
      .select(['l.id', 'l.memberId', 'r.memberId as booker'])
      .where('l.kind', '=', 'deduct')
      .where('l.memberId', 'is not', null),
    'l.storeId',
  ).execute();
  for (const l of named) {
    if (l.memberId !== l.booker) out.push(`ledger ${l.id}: names member ${l.memberId}, the booking is ${l.booker}'s`);
  }
  return out;
}

/**
 * Caps per card (issue 29, item 4): no card of a capped product holds more live classes (bookings
 * and waiting pendings of live sessions) on one day, or in one week (Monday to Sunday), than its
 * product allows.
 */
async function capProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const capped = await db
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as cp', 'cp.id', 'mc.cardId')
    .select(['mc.id', 'cp.maxPerDay', 'cp.maxPerWeek'])
    .where((eb) => eb.or([eb('cp.maxPerDay', 'is not', null), eb('cp.maxPerWeek', 'is not', null)]))
    .$if(storeId !== undefined, (q) => q.where('mc.storeId', '=', storeId!))
    .execute();
  if (!capped.length) return out;
  const ids = capped.map((c) => c.id);
  const booked = await db
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .select(['r.memberCardId as id', 't.startTime'])
    .where('r.memberCardId', 'in', ids)
    .where('r.status', 'in', LIVE)
    .where('t.deleted', '=', 0)
    .execute();
  const waiting = await db
    .selectFrom('pending as p')
    .innerJoin('timetable as t', 't.id', 'p.timetableId')
    .select(['p.memberCardId as id', 't.startTime'])
    .where('p.memberCardId', 'in', ids)
    .where('p.status', '=', PendingStatus.WAITING)
    .where('t.deleted', '=', 0)
    .execute();
  const perDay = new Map<string, number>();
  const perWeek = new Map<string, number>();
  for (const b of [...booked, ...waiting]) {
    const day = b.startTime.slice(0, 10);
    perDay.set(`${b.id} ${day}`, (perDay.get(`${b.id} ${day}`) ?? 0) + 1);
    const week = weekDays(day)[0];
    perWeek.set(`${b.id} ${week}`, (perWeek.get(`${b.id} ${week}`) ?? 0) + 1);
  }
  const caps = new Map(capped.map((c) => [c.id, c]));
  for (const [key, n] of perDay) {
    const c = caps.get(Number(key.split(' ')[0]))!;
    if (c.maxPerDay !== null && n > c.maxPerDay)
      out.push(`card ${c.id}: ${n} classes on ${key.split(' ')[1]} > ${c.maxPerDay} a day`);
  }
  for (const [key, n] of perWeek) {
    const c = caps.get(Number(key.split(' ')[0]))!;
    if (c.maxPerWeek !== null && n > c.maxPerWeek)
      out.push(`card ${c.id}: ${n} classes in the week of ${key.split(' ')[1]} > ${c.maxPerWeek} a week`);
  }
  return out;
}

/**
 * Online orders (issue 28): every paid order (已支付 or refunded since) has exactly one sale or top-up
 * recorded 线上 for it, of its amount, on the card it names (a card order's card is of its product and
 * member, a top-up's card gained a `topup` ledger entry of that amount); an unpaid or closed order has
 * none; no card is closed (refunded) while an order that paid into it is still refundable (已支付,
 * nothing of it refunded); and online money received = the amounts of the paid orders. Issue 42: money in is accounted for
 * once: an order with money in (paid) is either fulfilled as above or 异常订单 (its reason kept, status
 * 异常订单 until its 原路退款 makes it 已退款; nothing issued nor credited for it, no money recorded on
 * any card), never both, never neither. The one exception: an order fulfilled whose refund the provider
 * refused once its card could no longer take the money back (closed or changed meanwhile; 退款失败 with
 * its card change and nothing put back) is 异常订单 while that money is owed (its 原路退款), fulfilled as above.
 */
async function onlineOrderProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);
  const orders = await scoped(
    db
      .selectFrom('payOrder')
      .select([
        'id',
        'orderNo',
        'kind',
        'status',
        'amount',
        'memberId',
        'productId',
        'memberCardId',
        'paidAt',
        'exceptionReason',
      ]),
    'storeId',
  ).execute();
  const payments = await scoped(
    db
      .selectFrom('cardPayment as p')
      .leftJoin('cardLedger as l', 'l.id', 'p.ledgerId')
      .select([
        'p.id',
        'p.payOrderId',
        'p.kind',
        'p.amount',
        'p.memberCardId',
        'p.channel',
        'l.kind as ledgerKind',
        'l.amount as ledgerAmount',
      ])
      .where('p.kind', '<>', 'refund'),
    'p.storeId',
  ).execute();
  const cards = new Map(
    (
      await scoped(
        db.selectFrom('memberCard').select(['id', 'memberId', 'cardId', 'transferredAt', 'refundedAt']),
        'storeId',
      ).execute()
    ).map((c) => [c.id, c]),
  );
  const stranded = await strandedRefusals(db, storeId);
  const byOrder = new Map<number, typeof payments>();
  let onlineMoney = 0;
  for (const p of payments) {
    if (p.channel === 'online') {
      onlineMoney += Number(p.amount);
      if (p.payOrderId === null) out.push(`payment ${p.id}: online without an order`);
    }
    if (p.payOrderId !== null) byOrder.set(p.payOrderId, [...(byOrder.get(p.payOrderId) ?? []), p]);
  }
  let paidMoney = 0;
  for (const o of orders) {
    const got = byOrder.get(o.id) ?? [];
    if (o.exceptionReason !== null && !stranded.has(o.id)) {
      if (o.status !== 5 && o.status !== 3)
        out.push(`order ${o.orderNo}: 异常订单 (${o.exceptionReason}) with status ${o.status}`);
      if (o.paidAt === null) out.push(`order ${o.orderNo}: 异常订单 with no money in`);
      if (got.length) out.push(`order ${o.orderNo}: 异常订单 yet ${got.length} sale/top-up record(s)`);
      if (o.kind === 'card' && o.memberCardId !== null) out.push(`order ${o.orderNo}: 异常订单 yet issued a card`);
      continue;
    }
    if (o.status === 5 && o.exceptionReason === null) out.push(`order ${o.orderNo}: 异常订单 without its reason`);
    const paid = o.status === 1 || o.status === 3 || o.status === 4 || o.status === 5;
    if (paid !== (o.paidAt !== null)) out.push(`order ${o.orderNo}: status ${o.status} but paid at ${o.paidAt}`);
    if (!paid) {
      if (got.length) out.push(`order ${o.orderNo}: status ${o.status} but ${got.length} payment(s) recorded`);
      continue;
    }
    paidMoney += Number(o.amount);
    if (got.length !== 1) {
      out.push(`order ${o.orderNo}: paid with ${got.length} sale/top-up records`);
      continue;
    }
    const p = got[0];
    const want = o.kind === 'topup' ? 'topup' : 'sale';
    if (p.kind !== want || p.channel !== 'online' || Number(p.amount) !== Number(o.amount)) {
      out.push(`order ${o.orderNo}: recorded as ${p.kind}/${p.channel} ${p.amount}, not ${want}/online ${o.amount}`);
    }
    if (p.memberCardId !== o.memberCardId)
      out.push(`order ${o.orderNo}: card ${o.memberCardId}, paid on ${p.memberCardId}`);
    const card = cards.get(p.memberCardId);
    // A card bought online and since transferred (转卡) is another member's.
    if (!card || (card.memberId !== o.memberId && card.transferredAt === null))
      out.push(`order ${o.orderNo}: card ${p.memberCardId} is not the member's`);
    // Issue 42, item 3: no card closed while an order that paid into it is still refundable (paid, nothing
    // of it refunded): closing a card pays back its part of every such order through its provider.
    if (card?.refundedAt && o.status === 1)
      out.push(`order ${o.orderNo}: card ${p.memberCardId} closed while the order is still refundable`);
    if (o.kind === 'card' && card && card.cardId !== o.productId)
      out.push(`order ${o.orderNo}: card of another product`);
    if (o.kind === 'card' && p.ledgerKind !== 'issue') out.push(`order ${o.orderNo}: no issue ledger entry`);
    if (o.kind === 'topup' && (p.ledgerKind !== 'topup' || Number(p.ledgerAmount) !== Number(o.amount))) {
      out.push(`order ${o.orderNo}: no top-up ledger entry of its amount`);
    }
  }
  if (onlineMoney !== paidMoney) out.push(`online money ${onlineMoney} != paid orders ${paidMoney}`);
  out.push(...(await onlineRefundProblems(db, paidMoney, stranded, storeId)));
  out.push(...(await cardLifeProblems(db, storeId)));
  return out;
}

/** Orders with a refund refused once its card could not take the money back (nothing put back, issue 42). */
async function strandedRefusals(db: Db, storeId?: number): Promise<Set<number>> {
  let q = db
    .selectFrom('payRefund')
    .select('payOrderId')
    .where('status', '=', 2)
    .where('ledgerId', 'is not', null)
    .where('undoLedgerId', 'is', null);
  if (storeId !== undefined) q = q.where('storeId', '=', storeId);
  return new Set((await q.execute()).map((r) => r.payOrderId));
}

/**
 * Refunds of online orders (issue 28, item 5): each refund not refused reduced exactly one card or
 * top-up (its own `card_refund` entry closing the order's card, or `topup_refund` of its amount on the
 * topped-up card), a refused one was put back by one `refund_undone` entry of the opposite amount; an
 * order's refunded amount is its refunds not refused, and its status follows; a successful refund's
 * money is recorded once 线上 (none before, none for a refused one); and online money received less
 * paid back = paid orders - successful refunds. A refund refused (退款失败) was refused by the provider (its
 * reason kept) and is not paid at the provider as far as the database can tell: no provider refund id,
 * no reconciled bill listing it refunded there (issue 42). A refund 退款异常 (WeChat's ABNORMAL, status 3) is open like
 * one 退款中: its card change stands, nothing is recorded as paid back, it is not settled. A refused refund
 * whose card could not take the money back (issue 42) is not put back, and its order is 异常订单 until its
 * 原路退款 (changing no card) pays that amount back.
 */
async function onlineRefundProblems(
  db: Db,
  paidMoney: number,
  stranded: Set<number>,
  storeId?: number,
): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);
  const refunds = await scoped(
    db
      .selectFrom('payRefund as r')
      .innerJoin('payOrder as o', 'o.id', 'r.payOrderId')
      .leftJoin('cardLedger as l', 'l.id', 'r.ledgerId')
      .leftJoin('cardLedger as u', 'u.id', 'r.undoLedgerId')
      .leftJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
      .select([
        'r.id',
        'r.refundNo',
        'r.payOrderId',
        'r.memberCardId',
        'r.amount',
        'r.status',
        'r.settledAt',
        'r.ledgerId',
        'r.providerRefundId',
        'r.failReason',
        'o.kind as orderKind',
        'o.memberCardId as orderCardId',
        'o.exceptionReason',
        'l.kind as ledgerKind',
        'l.amount as ledgerAmount',
        'l.memberCardId as ledgerCardId',
        'u.kind as undoKind',
        'u.amount as undoAmount',
        'u.memberCardId as undoCardId',
        'mc.refundedAt',
      ]),
    'r.storeId',
  ).execute();
  const refundPays = await scoped(
    db
      .selectFrom('cardPayment')
      .select(['id', 'payOrderId', 'ledgerId', 'amount', 'channel', 'memberCardId'])
      .where('kind', '=', 'refund')
      .where('payOrderId', 'is not', null),
    'storeId',
  ).execute();
  // Refunds a day's bill showed refunded at the provider while not 已退款 here (对账, issue 42).
  const runs = await scoped(
    db.selectFrom('payReconcile').select(['billDate', 'result']).where('status', '=', 'done'),
    'storeId',
  ).execute();
  const paidThere = new Map<string, string>();
  for (const run of runs) {
    for (const d of JSON.parse(run.result ?? '[]') as { kind: string; refundNo?: string | null }[]) {
      if (d.kind === 'refund_provider_only' && d.refundNo) paidThere.set(d.refundNo, run.billDate);
    }
  }
  const payOf = new Map<number, typeof refundPays>();
  for (const p of refundPays) payOf.set(Number(p.ledgerId), [...(payOf.get(Number(p.ledgerId)) ?? []), p]);
  const ledgers = new Set<number>();
  const refundedOf = new Map<number, number>();
  let succeeded = 0;
  let succeededException = 0;
  let matched = 0;
  // Per 异常订单 of a stranded refusal: what was refused (owed back) and what its 原路退款 took (not refused).
  const owed = new Map<number, number>();
  const add = (m: Map<number, number>, k: number, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  // Per order: its successful refunds (a stranded order's 原路退款 included); per stranded order: its 原路退款
  // succeeded, and the money recorded paid back against its refused refunds' card changes (oldest first).
  const doneOf = new Map<number, number>();
  const backDone = new Map<number, number>();
  const backRecorded = new Map<number, { name: string; amount: number; recorded: number }[]>();
  for (const r of refunds) {
    const name = `refund ${r.refundNo}`;
    if (![0, 1, 2, 3].includes(r.status)) out.push(`${name}: unknown status ${r.status}`);
    // The 原路退款 of an 异常订单 changes no card: no card, no ledger entry, nothing put back, no money on a card.
    if (r.exceptionReason !== null && (r.ledgerId === null || !stranded.has(r.payOrderId))) {
      if (r.memberCardId !== null || r.ledgerId !== null || r.undoKind !== null)
        out.push(`${name}: refund of an 异常订单 changed card ${r.memberCardId}`);
      if (r.status !== 2) refundedOf.set(r.payOrderId, (refundedOf.get(r.payOrderId) ?? 0) + Number(r.amount));
      if (r.status !== 2 && stranded.has(r.payOrderId)) add(owed, r.payOrderId, -Number(r.amount));
      if (r.status === 1 && stranded.has(r.payOrderId)) {
        // The money the refused refunds owed went back: recorded against their card changes (issue 42).
        succeeded += Number(r.amount);
        add(doneOf, r.payOrderId, Number(r.amount));
        add(backDone, r.payOrderId, Number(r.amount));
      } else if (r.status === 1) succeededException += Number(r.amount);
      continue;
    }
    if (r.ledgerId === null || r.memberCardId === null) {
      out.push(`${name}: refund of a fulfilled order with no card change`);
      continue;
    }
    if (ledgers.has(r.ledgerId)) out.push(`${name}: shares its card change with another refund`);
    ledgers.add(r.ledgerId);
    if (r.memberCardId !== r.orderCardId || r.ledgerCardId !== r.memberCardId)
      out.push(`${name}: card ${r.memberCardId}, order's ${r.orderCardId}, ledger's ${r.ledgerCardId}`);
    const want = r.orderKind === 'topup' ? 'topup_refund' : 'card_refund';
    if (r.ledgerKind !== want) out.push(`${name}: card change ${r.ledgerKind ?? 'none'}, not ${want}`);
    if (r.orderKind === 'topup' && Number(r.ledgerAmount) !== -Number(r.amount))
      out.push(`${name}: took ${r.ledgerAmount} off the balance for ${r.amount}`);
    const pays = payOf.get(r.ledgerId) ?? [];
    matched += pays.length;
    // 退款异常 is open: not settled, the card not put back (checked below), no money recorded as paid back.
    if (r.status === 3 && r.settledAt !== null) out.push(`${name}: 退款异常 but settled at ${r.settledAt}`);
    if (r.status === 2) {
      // Not put back only when its card could not take it back: its order is 异常订单, owing it (issue 42).
      const owing = r.undoKind === null && r.exceptionReason !== null;
      if (owing) {
        add(owed, r.payOrderId, Number(r.amount));
        // Paid back by the order's 原路退款 only: online, this order, this card, no more than refused.
        const recorded = pays.reduce((n, p) => n + Number(p.amount), 0);
        if (
          pays.some((p) => p.channel !== 'online' || p.payOrderId !== r.payOrderId || p.memberCardId !== r.memberCardId)
        )
          out.push(`${name}: refused, paid back elsewhere than online on its order and card`);
        if (recorded > Number(r.amount)) out.push(`${name}: refused ${r.amount} yet ${recorded} paid back against it`);
        backRecorded.set(r.payOrderId, [
          ...(backRecorded.get(r.payOrderId) ?? []),
          { name, amount: Number(r.amount), recorded },
        ]);
      }
      if (
        !owing &&
        (r.undoKind !== 'refund_undone' ||
          r.undoCardId !== r.memberCardId ||
          Number(r.undoAmount) !== -Number(r.ledgerAmount))
      )
        out.push(`${name}: refused but not put back (${r.undoKind ?? 'none'} ${r.undoAmount ?? ''})`);
      if (!owing && pays.length) out.push(`${name}: refused yet ${pays.length} refund payment(s) recorded`);
      // Refused only on the provider's word (its reason), never once the provider paid it: no refund id
      // of a payment made, and no reconciled bill showing it refunded there.
      if (!r.failReason || r.settledAt === null) out.push(`${name}: refused without the provider's reason`);
      if (r.providerRefundId !== null) out.push(`${name}: refused yet paid at the provider (${r.providerRefundId})`);
      if (paidThere.has(r.refundNo))
        out.push(`${name}: refused yet refunded at the provider (对账 ${paidThere.get(r.refundNo)})`);
      continue;
    }
    if (r.undoKind !== null) out.push(`${name}: status ${r.status} but put back`);
    if (r.orderKind === 'card' && r.refundedAt === null) out.push(`${name}: the order's card is still open`);
    refundedOf.set(r.payOrderId, (refundedOf.get(r.payOrderId) ?? 0) + Number(r.amount));
    if (r.status === 1) {
      succeeded += Number(r.amount);
      add(doneOf, r.payOrderId, Number(r.amount));
      const p = pays[0];
      if (
        pays.length !== 1 ||
        p.channel !== 'online' ||
        Number(p.amount) !== Number(r.amount) ||
        p.payOrderId !== r.payOrderId ||
        p.memberCardId !== r.memberCardId
      )
        out.push(`${name}: succeeded with ${pays.length} refund payment(s) recorded`);
    } else if (pays.length)
      out.push(`${name}: status ${r.status} (open) yet ${pays.length} refund payment(s) recorded`);
  }
  const onlineBack = refundPays.filter((p) => p.channel === 'online');
  if (onlineBack.length !== matched) out.push(`${onlineBack.length - matched} online refund payment(s) of no refund`);
  // A stranded order's 原路退款 that succeeded is recorded paid back against its refused refunds, in order.
  for (const id of new Set([...backDone.keys(), ...backRecorded.keys()])) {
    const list = backRecorded.get(id) ?? [];
    const recorded = list.reduce((n, x) => n + x.recorded, 0);
    if (recorded !== (backDone.get(id) ?? 0))
      out.push(
        `order ${id}: 原路退款 paid back ${backDone.get(id) ?? 0}, recorded against its refused refunds ${recorded}`,
      );
    const short = list.findIndex((x) => x.recorded < x.amount);
    if (short >= 0 && list.slice(short + 1).some((x) => x.recorded > 0))
      out.push(`${list[short].name}: paid back in part while a later refused refund was paid back`);
  }
  const orders = await scoped(
    db
      .selectFrom('payOrder')
      .select(['id', 'orderNo', 'status', 'amount', 'refunded', 'exceptionReason', 'memberCardId', 'paidAt']),
    'storeId',
  ).execute();
  for (const o of orders) {
    const got = Number(o.refunded);
    const want = refundedOf.get(o.id) ?? 0;
    if (got !== want) out.push(`order ${o.orderNo}: refunded ${got} != its refunds ${want}`);
    if (got > Number(o.amount)) out.push(`order ${o.orderNo}: refunded ${got} above paid ${o.amount}`);
    let status = got === 0 ? null : got === Number(o.amount) ? 3 : 4;
    const owes = owed.get(o.id) ?? 0;
    if (owes < 0) out.push(`order ${o.orderNo}: 原路退款 ${-owes} more than its refused refunds`);
    // An 异常订单 still owing a refused refund's money is 异常订单 whatever went back before.
    if (stranded.has(o.id) && owes > 0) status = 5;
    if (status === null && o.exceptionReason !== null && o.status !== 5 && !stranded.has(o.id))
      out.push(`order ${o.orderNo}: 异常订单 not refunded but status ${o.status}`);
    if (status !== null && o.status !== status) out.push(`order ${o.orderNo}: refunded ${got} but status ${o.status}`);
    if (status === null && (o.status === 3 || o.status === 4))
      out.push(`order ${o.orderNo}: status ${o.status} with nothing refunded`);
  }
  const received = await scoped(
    db
      .selectFrom('cardPayment')
      .select(sql<number>`coalesce(sum(case when kind = 'refund' then -amount else amount end), 0)`.as('n'))
      .where('channel', '=', 'online'),
    'storeId',
  ).executeTakeFirstOrThrow();
  if (Number(received.n) !== paidMoney - succeeded)
    out.push(`online money ${received.n} != paid orders ${paidMoney} - successful refunds ${succeeded}`);
  // Card by card (issue 42): the money a card took in online = the money paid back on it + the money kept,
  // what is left of each order fulfilled into it (its amount less its successful refunds, a stranded
  // order's 原路退款 included).
  const byCard = await scoped(
    db
      .selectFrom('cardPayment')
      .select([
        'memberCardId',
        sql<number>`coalesce(sum(case when kind = 'refund' then 0 else amount end), 0)`.as('moneyIn'),
        sql<number>`coalesce(sum(case when kind = 'refund' then amount else 0 end), 0)`.as('moneyOut'),
      ])
      .where('channel', '=', 'online')
      .groupBy('memberCardId'),
    'storeId',
  ).execute();
  const kept = new Map<number, number>();
  for (const o of orders) {
    if (o.memberCardId === null || o.paidAt === null) continue;
    if (o.exceptionReason !== null && !stranded.has(o.id)) continue;
    add(kept, o.memberCardId, Number(o.amount) - (doneOf.get(o.id) ?? 0));
  }
  for (const c of byCard) {
    const k = kept.get(c.memberCardId) ?? 0;
    if (Number(c.moneyIn) !== Number(c.moneyOut) + k)
      out.push(`card ${c.memberCardId}: online money in ${c.moneyIn} != paid back ${c.moneyOut} + kept ${k}`);
    kept.delete(c.memberCardId);
  }
  for (const [card, k] of kept) if (k !== 0) out.push(`card ${card}: keeps ${k} of online orders with no money in`);
  // 异常订单: what came in went back only through their own refunds (never more than came in).
  const exceptionIn = orders.filter((o) => o.exceptionReason !== null).reduce((n, o) => n + Number(o.amount), 0);
  if (succeededException > exceptionIn)
    out.push(`异常订单 refunds ${succeededException} above what they took in ${exceptionIn}`);
  return out;
}

/** `YYYY-MM-DD` plus days (lib/time.ts addDays; the checker imports no app code). */
const plusDays = (date: string, days: number) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

/**
 * A card's life (issue 29): for every card with a validity (days; products that expire) its expiry
 * is the end of (activation date + validity + days of leave), the activation being its start, or
 * for a 首次上课开卡 card not started the last day it starts (sale + the product's days); its days of
 * leave are the days its approved and ended leaves hold, and the periods the booking rules read are
 * exactly those leaves' spans.
 */
async function cardLifeProblems(db: Db, storeId?: number): Promise<string[]> {
  const out: string[] = [];
  const scoped = <T extends { where: (...a: any[]) => T }>(q: T, col: string): T =>
    storeId === undefined ? q : q.where(col, '=', storeId);
  const cards = await scoped(
    db
      .selectFrom('memberCard as mc')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select([
        'mc.id',
        'mc.expireTime',
        'mc.activateTime',
        'mc.createdAt',
        'mc.validDays',
        'mc.leaveDays',
        'mc.leavePeriods',
        'p.cardType',
        'p.activation',
        'p.activateWithinDays',
      ]),
    'mc.storeId',
  ).execute();
  const leaves = await scoped(
    db
      .selectFrom('cardLeave')
      .select(['memberCardId', 'fromDate', 'toDate', 'endedDate', 'days', 'status'])
      .where('status', 'in', ['approved', 'ended']),
    'storeId',
  ).execute();
  const leavesOf = new Map<number, typeof leaves>();
  for (const l of leaves) leavesOf.set(l.memberCardId, [...(leavesOf.get(l.memberCardId) ?? []), l]);
  for (const c of cards) {
    const mine = leavesOf.get(c.id) ?? [];
    const days = mine.reduce((n, l) => n + Number(l.days), 0);
    if (Number(c.leaveDays) !== days) out.push(`card ${c.id}: leave days ${c.leaveDays} != its leaves' ${days}`);
    const spans = mine.map((l) => [l.fromDate, l.endedDate ?? l.toDate]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const periods = (JSON.parse(c.leavePeriods) as string[][]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    if (JSON.stringify(periods) !== JSON.stringify(spans))
      out.push(`card ${c.id}: leave periods ${c.leavePeriods} != its leaves ${JSON.stringify(spans)}`);
    for (const l of mine) {
      const end = l.endedDate ?? l.toDate;
      const span =
        Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${l.fromDate}T00:00:00Z`)) / 86_400_000) + 1;
      if (span !== Number(l.days))
        out.push(`card ${c.id}: leave ${l.fromDate}..${end} holds ${l.days} days, not ${span}`);
    }
    if (c.cardType === 2 || c.validDays === null) continue;
    const start =
      c.activateTime?.slice(0, 10) ??
      (c.activation === 'first_class' ? plusDays(c.createdAt.slice(0, 10), c.activateWithinDays) : null);
    if (start === null) {
      out.push(`card ${c.id}: a validity but no start`);
      continue;
    }
    const want = `${plusDays(start, Number(c.validDays) + Number(c.leaveDays))} 23:59:59`;
    if (c.expireTime !== want) {
      out.push(`card ${c.id}: expiry ${c.expireTime} != start ${start} + ${c.validDays} + leave ${c.leaveDays} days`);
    }
  }
  return out;
}
