import { BIG_TYPE_MONEY, CONTRACT_UNSIGNED_SETTING, LIVE_RESERVATION, PendingStatus } from '@studio/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Executor, Tx } from '../../db/index.ts';
import { fixed, mapRead, noRead, sendRead, type Read } from '../../db/fixed.ts';
import type { Database, MemberCardTable, NewRow, RowUpdate } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { CardOfRules } from './rules.ts';
import { withCourseNameIfAny } from '../reference/public.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * The member cards' repository: the card products on sale with the courses they book, the cards
 * members hold, their ledger (sales, top-ups, refunds) and the money taken and paid back for them.
 * The links between products and courses are written from either side by `../course/repository.ts`
 * (`insertCourseCards`, `clearCourseCards`). The services of this folder hold the rules and the
 * transactions; the booking engine reads cards here too (through `reference/public.ts`).
 */

// Card products.

/** A product's card-life columns (issue 29): activation, leave, caps, the refund rule. */
export const PRODUCT_LIFE_COLUMNS = [
  'activation',
  'activationDate',
  'lateSaleStartsToday',
  'activateWithinDays',
  'leaveAllowed',
  'leaveTimes',
  'leaveDaysMax',
  'leaveDaysTotal',
  'maxPerDay',
  'maxPerWeek',
  'refundFeePercent',
  'shareMax',
] as const;

/** The store's card products that are not deleted, by id. */
export function liveProducts(ex: Executor, storeId: number) {
  return ex
    .selectFrom('cardProduct')
    .select([
      'id',
      'cardName',
      'bigType',
      'cardType',
      'perCount',
      'price',
      'totalCount',
      'validDays',
      'enabled',
      'onlineSale',
      'onlinePrice',
      'trial',
      ...PRODUCT_LIFE_COLUMNS,
      'teacherId',
      'teacherLevel',
    ])
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
}

/** The links of the store's card products (`cardId`) to the live courses ({id, name}) they may book, by course id. */
export function productCourseLinks(ex: Executor, storeId: number) {
  return ex
    .selectFrom('courseCard as cc')
    .innerJoin('course as c', 'c.id', 'cc.courseId')
    .select(['cc.cardId', 'c.id', 'c.name'])
    .where('cc.storeId', '=', storeId)
    .where('c.deleted', '=', 0)
    .orderBy('c.id')
    .execute();
}

/** A card product of the store that is not deleted, or 404 卡种不存在. */
export async function requireProduct(ex: Executor, storeId: number, id: number) {
  const p = await ex
    .selectFrom('cardProduct')
    .select([
      'id',
      'cardName',
      'bigType',
      'cardType',
      'perCount',
      'price',
      'validDays',
      'deleted',
      'onlineSale',
      'onlinePrice',
      'trial',
      ...PRODUCT_LIFE_COLUMNS,
      'teacherId',
      'teacherLevel',
    ])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!p || p.deleted) throw notFound('卡种');
  return p;
}

/** What online sales read of a card product: what it is, its price, and its life (when a card sold today starts). */
const PRODUCT_SALE_COLUMNS = [
  'id',
  'cardName',
  'bigType',
  'cardType',
  'perCount',
  'totalCount',
  'validDays',
  'onlinePrice',
  'trial',
  ...PRODUCT_LIFE_COLUMNS,
] as const;

/** A card product of the store as online sales read it (deleted ones too: an order paid late still issues it). */
export function productForSale(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('cardProduct')
    .select([...PRODUCT_SALE_COLUMNS, 'enabled', 'deleted', 'onlineSale'])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The store's live, enabled products marked 线上售卖, by id. */
export function productsOnSale(ex: Executor, storeId: number) {
  return ex
    .selectFrom('cardProduct')
    .select(PRODUCT_SALE_COLUMNS)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('enabled', '=', 1)
    .where('onlineSale', '=', 1)
    .orderBy('id')
    .execute();
}

/**
 * The one 体验卡 rule (once per member): whether the member has had theirs, i.e. holds (or held) a card
 * of any 体验卡 product of the store, from any source (the desk's sale, an online order, an import), or
 * has a 体验卡 order paid or still open (other than `exceptOrderId`: the order being fulfilled). Asked
 * by the online order, by its fulfilment (a second 体验卡 is 异常订单, never a second card) and by the
 * desk's sale.
 */
export async function memberHadTrial(
  ex: Executor,
  storeId: number,
  memberId: number,
  exceptOrderId?: number,
): Promise<boolean> {
  const card = await ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .select('mc.id')
    .where('mc.storeId', '=', storeId)
    .where('mc.memberId', '=', memberId)
    .where('p.trial', '=', 1)
    .limit(1)
    .executeTakeFirst();
  if (card) return true;
  let orders = ex
    .selectFrom('payOrder')
    .select('id')
    .where('storeId', '=', storeId)
    .where('memberId', '=', memberId)
    .where('trial', '=', 1)
    .where('status', 'in', [0, 1, 4]);
  if (exceptOrderId !== undefined) orders = orders.where('id', '!=', exceptOrderId);
  return Boolean(await orders.limit(1).executeTakeFirst());
}

/** Whether any member holds a card of the product (refunded cards too). */
export async function productHeld(ex: Executor, storeId: number, productId: number): Promise<boolean> {
  const held = await ex
    .selectFrom('memberCard')
    .select('id')
    .where('storeId', '=', storeId)
    .where('cardId', '=', productId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(held);
}

/** Adds a card product; answers its id. */
export function insertProduct(tx: Tx, row: NewRow<'cardProduct'>) {
  return tx.insertInto('cardProduct').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Changes a card product's fields. */
export async function updateProduct(tx: Tx, storeId: number, id: number, fields: RowUpdate<'cardProduct'>) {
  await tx.updateTable('cardProduct').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** Takes a card product off sale (soft delete). */
export async function markProductDeleted(ex: Executor, storeId: number, id: number) {
  await ex
    .updateTable('cardProduct')
    .set({ deleted: 1, enabled: 0 })
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .execute();
}

// The cards members hold.

/** A card's holder and whether it was refunded (why a guarded write to it changed nothing). */
export function cardHolder(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('memberCard')
    .select(['memberId', 'refundedAt'])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A member card of the store with its product's kind, or 404 会员卡不存在. */
export async function requireMemberCard(ex: Executor, storeId: number, id: number) {
  const c = await ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .select([
      'mc.id',
      'mc.cardId',
      'mc.memberId',
      'mc.totalCount',
      'mc.usedCount',
      'mc.refundedAt',
      'mc.frozen',
      'mc.expireTime',
      'mc.createdAt',
      'mc.activateTime',
      'mc.validDays',
      'mc.leaveDays',
      'mc.leavePeriods',
      'mc.transferredAt',
      'mc.sharedWith',
      'p.bigType',
      'p.cardType',
      'p.perCount',
      'p.cardName',
      'p.activation',
      'p.activateWithinDays',
      'p.refundFeePercent',
      'p.shareMax',
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', '=', id)
    .executeTakeFirst();
  if (!c) throw notFound('会员卡');
  return { ...c, totalCount: Number(c.totalCount), usedCount: Number(c.usedCount) };
}

/** The kind of a member card's product (1 counts, 2 money; see amountText). */
export async function cardBigType(ex: Executor, memberCardId: number): Promise<number> {
  const row = await ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .select('p.bigType')
    .where('mc.id', '=', memberCardId)
    .executeTakeFirstOrThrow();
  return row.bigType;
}

/**
 * Whether the card `mc` may not book for its contract: 待签约 while its store books only signed cards
 * (the store setting 未签约的卡可以预约 is '0'). The query half of rules.ts `contractUnsigned`.
 */
export function unsignedBlocks(eb: ExpressionBuilder<Database & { mc: MemberCardTable }, 'mc'>) {
  return eb.and([
    eb.exists(
      eb
        .selectFrom('cardContract as ucc')
        .select('ucc.id')
        .whereRef('ucc.memberCardId', '=', 'mc.id')
        .where('ucc.signedAt', 'is', null),
    ),
    eb.exists(
      eb
        .selectFrom('storeSetting as uss')
        .select('uss.storeId')
        .whereRef('uss.storeId', '=', 'mc.storeId')
        .where('uss.key', '=', CONTRACT_UNSIGNED_SETTING)
        .where('uss.value', '=', '0'),
    ),
  ]);
}

/**
 * The card `mc` is one `memberId` books on: they hold it, or it is shared with them (多人共享,
 * `card_share`). The query form of features/cards/rules.ts `booksOn`.
 */
export function booksOnCard(eb: ExpressionBuilder<Database & { mc: MemberCardTable }, 'mc'>, memberId: number) {
  return eb.or([
    eb('mc.memberId', '=', memberId),
    eb.exists(
      eb
        .selectFrom('cardShare as cs')
        .select('cs.id')
        .whereRef('cs.memberCardId', '=', 'mc.id')
        .where('cs.memberId', '=', memberId),
    ),
  ]);
}

/**
 * Every card a member holds, with its product, oldest first; `withShared`: and the cards shared
 * with them (多人共享), each with its holder's name (the card pickers and the member's 我的会员卡).
 */
export function memberCards(ex: Executor, storeId: number, memberId: number, o: { withShared?: boolean } = {}) {
  return ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .innerJoin('member as h', 'h.id', 'mc.memberId')
    .select([
      'h.name as holderName',
      'mc.sharedWith',
      'p.shareMax',
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'p.cardName',
      'p.bigType',
      'p.cardType',
      'p.perCount',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.frozen',
      'mc.refundedAt',
      'mc.leavePeriods',
      'mc.activateTime',
      'mc.leaveDays',
      'mc.createdAt',
      'p.activation',
      'p.activateWithinDays',
      'p.leaveAllowed',
    ])
    .select((eb) => unsignedBlocks(eb).as('contractUnsigned'))
    .select((eb) =>
      eb
        .selectFrom('cardContract as scc')
        .select('scc.signedAt')
        .whereRef('scc.memberCardId', '=', 'mc.id')
        .as('contractSignedAt'),
    )
    .select((eb) =>
      eb
        .exists(eb.selectFrom('cardContract as ecc').select('ecc.id').whereRef('ecc.memberCardId', '=', 'mc.id'))
        .as('hasContract'),
    )
    .where('mc.storeId', '=', storeId)
    .where((eb) => (o.withShared ? booksOnCard(eb, memberId) : eb('mc.memberId', '=', memberId)))
    .orderBy('mc.id')
    .execute();
}

/** Other members' cards shared with `memberId` (多人共享), not refunded, with their holder, oldest first. */
export function cardsSharedWith(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('cardShare as cs')
    .innerJoin('memberCard as mc', 'mc.id', 'cs.memberCardId')
    .$call(joinCardProduct())
    .innerJoin('member as h', 'h.id', 'mc.memberId')
    .select(['mc.id', 'p.cardName', 'h.id as holderId', 'h.name as holderName'])
    .where('cs.storeId', '=', storeId)
    .where('cs.memberId', '=', memberId)
    .where('mc.refundedAt', 'is', null)
    .orderBy('mc.id')
    .execute();
}

/** The members each card of `cardIds` is shared with (多人共享), by card id, in the order they were added. */
export async function sharersOf(ex: Executor, storeId: number, cardIds: readonly number[]) {
  const by = new Map<number, { id: number; name: string; mobile: string }[]>(cardIds.map((id) => [id, []]));
  if (!cardIds.length) return by;
  const rows = await ex
    .selectFrom('cardShare as cs')
    .innerJoin('member as m', 'm.id', 'cs.memberId')
    .select(['cs.memberCardId', 'm.id', 'm.name', 'm.mobile'])
    .where('cs.storeId', '=', storeId)
    .where('cs.memberCardId', 'in', [...cardIds])
    .orderBy('cs.id')
    .execute();
  for (const { memberCardId, ...m } of rows) by.get(memberCardId)?.push(m);
  return by;
}

/** A member card with what the booking rules need: its product, its holder's name, gender and birthday. */
export interface BookingCard extends CardOfRules {
  expireTime: string | null;
  /** Null: a 首次上课开卡 card not started yet (its first class starts it: activation.ts). */
  activateTime: string | null;
  activation: string;
  cardName: string;
  /** 1: a 体验卡 product's card. */
  trial: number;
  memberName: string;
  gender: number;
  birthday: string | null;
}

/**
 * The lesson a card would pay for: a session (booked or being booked), or a lesson of a type with a
 * teacher not booked yet (the member's card picker asks before the lesson exists). As SQL: its
 * course (`sc`) and teacher, and what picks it out.
 */
export type LessonRef = { sessionId: number } | { courseId: number; teacherId: number };
const lessonOf = (l: LessonRef) =>
  'sessionId' in l
    ? {
        from: sql`timetable st join course sc on sc.id = st.course_id`,
        teacher: sql`st.teacher_id`,
        where: sql`st.id = ${l.sessionId}`,
      }
    : { from: sql`course sc`, teacher: sql`${l.teacherId}`, where: sql`sc.id = ${l.courseId}` };

/**
 * Whether a lesson pack bound to a teacher or a teacher level (card_product.teacher_id /
 * teacher_level, 私教课包) may pay for the lesson: only that teacher's lessons, or lessons of a
 * teacher giving the type at that level. Unbound products fit any session.
 */
const lessonPackFits = (ref: LessonRef) => {
  const l = lessonOf(ref);
  return sql<boolean>`((cp.teacher_id is null or exists (select 1 from ${l.from} where ${l.where} and ${l.teacher} = cp.teacher_id))
    and (cp.teacher_level is null or exists (select 1 from ${l.from}
      join lesson_teacher lt on lt.course_id = sc.id and lt.teacher_id = ${l.teacher}
      where ${l.where} and lt.level = cp.teacher_level)))`;
};

/**
 * What one member's place in the lesson takes from the card: its product's per-class amount; for
 * a 储值卡 (money card) in a lesson (a course not 'group'), the lesson type's price at the level its
 * teacher gives it (lesson_price; the type's price without a level when that level has none).
 */
const perClassIn = (ref: LessonRef | undefined) => {
  if (ref === undefined) return sql<number>`cp.per_count`;
  const l = lessonOf(ref);
  return sql<number>`coalesce((select lp.price from ${l.from}
      left join lesson_teacher lt on lt.course_id = sc.id and lt.teacher_id = ${l.teacher}
      join lesson_price lp on lp.course_id = sc.id and (lp.level = coalesce(lt.level, '') or lp.level = '')
      where ${l.where} and sc.kind <> 'group' and cp.big_type = ${BIG_TYPE_MONEY}
      order by lp.level desc limit 1), cp.per_count)`;
};

/**
 * For a lesson not booked yet (a type with a teacher): each of some member cards of the store, by
 * id, with whether the type allows its product (the type's cards, which its lessons allow, and a
 * lesson pack's teacher or level) and what one member's place takes from it — the same terms a
 * booking of the lesson reads (`storeCards` with `allowedIn`).
 */
export async function lessonTermsOf(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  lesson: { courseId: number; teacherId: number },
): Promise<Map<number, { allowed: boolean; perCount: number }>> {
  if (!ids.length) return new Map();
  const rows = await ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct('cp'))
    .select('mc.id')
    .select(perClassIn(lesson).as('perCount'))
    .select((eb) =>
      eb
        .and([
          eb.exists(
            eb
              .selectFrom('courseCard as cc')
              .select('cc.cardId')
              .where('cc.courseId', '=', lesson.courseId)
              .whereRef('cc.cardId', '=', 'mc.cardId'),
          ),
          lessonPackFits(lesson),
        ])
        .as('allowed'),
    )
    .where('mc.storeId', '=', storeId)
    .where('mc.id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, { allowed: Boolean(r.allowed), perCount: Number(r.perCount) }]));
}

const storeCardRows = fixed((ex, p: { storeId: number; ids: number[]; allowedIn: number | undefined }) =>
  ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct('cp'))
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .select([
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.frozen',
      'mc.leavePeriods',
      'mc.sharedWith',
      'mc.activateTime',
      'cp.activation',
      'cp.leaveAllowed',
      'cp.cardName',
      'cp.cardType',
      'cp.trial',
      'm.name as memberName',
      'm.gender',
      'm.birthday',
    ])
    .select((eb) => unsignedBlocks(eb).as('contractUnsigned'))
    .select(perClassIn(p.allowedIn === undefined ? undefined : { sessionId: p.allowedIn }).as('perCount'))
    .$if(p.allowedIn !== undefined, (q) =>
      q.select((eb) => [
        eb
          .and([
            eb.exists(
              eb
                .selectFrom('timetableCard as tc')
                .select('tc.cardId')
                .where('tc.timetableId', '=', p.allowedIn!)
                .whereRef('tc.cardId', '=', 'mc.cardId'),
            ),
            lessonPackFits({ sessionId: p.allowedIn! }),
          ])
          .as('allowed'),
      ]),
    )
    .where('mc.storeId', '=', p.storeId)
    .where('mc.id', 'in', p.ids),
);

/**
 * Member cards of the store with what the booking rules need (product, holder), by id; 404
 * 会员卡不存在 when any id is not the store's. With `allowedIn`, each card also says whether that
 * session allows its product (in the same statement).
 */
export function storeCards(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  o: { allowedIn?: number } = {},
): Promise<Map<number, BookingCard & { allowed: boolean }>> {
  return sendRead(ex, storeCardsRead(ex, storeId, ids, o));
}

/** `storeCards` as a read to send with others: 404 会员卡不存在 when its value is taken. */
export function storeCardsRead(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  o: { allowedIn?: number } = {},
): Read<Map<number, BookingCard & { allowed: boolean }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return noRead(new Map());
  return mapRead(storeCardRows.plan(ex, { storeId, ids: unique, allowedIn: o.allowedIn }), (rows) => {
    if (rows.length !== unique.length) throw notFound('会员卡');
    return new Map(
      rows.map((r) => [
        r.id,
        { ...r, totalCount: Number(r.totalCount), usedCount: Number(r.usedCount), allowed: Boolean(r.allowed) },
      ]),
    );
  });
}

/** What starting a 首次上课开卡 card needs: the card's sale, validity and leave, its product's activation. */
export function cardForActivation(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .select([
      'mc.activateTime',
      'mc.createdAt',
      'mc.validDays',
      'mc.leaveDays',
      'mc.expireTime',
      'p.activation',
      'p.activateWithinDays',
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', '=', id)
    .executeTakeFirst();
}

/** Starts a card that has not started (guarded: false when it has), with its expiry. */
export async function setCardActivated(
  tx: Tx,
  storeId: number,
  id: number,
  activateTime: string,
  expireTime: string | null,
): Promise<boolean> {
  const res = await tx
    .updateTable('memberCard')
    .set({ activateTime, expireTime })
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('activateTime', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Issues a card to a member; answers its id. */
export function insertMemberCard(tx: Tx, row: NewRow<'memberCard'>) {
  return tx.insertInto('memberCard').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Freezes (1) or unfreezes (0) a member card. */
export async function setMemberCardFrozen(ex: Executor, storeId: number, id: number, frozen: 0 | 1) {
  await ex.updateTable('memberCard').set({ frozen }).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** Moves a member card's expiry, with the validity (days) that gives it. */
export async function setMemberCardExpiry(
  ex: Executor,
  storeId: number,
  id: number,
  expireTime: string,
  validDays: number,
) {
  await ex
    .updateTable('memberCard')
    .set({ expireTime, validDays })
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .execute();
}

/** Adds `amount` to a card's total in one guarded UPDATE; false when the card is refunded. */
export async function addToCardTotal(
  tx: Tx,
  storeId: number,
  id: number,
  amount: number,
  holder?: number,
): Promise<boolean> {
  let q = tx
    .updateTable('memberCard')
    .set((eb) => ({ totalCount: eb('totalCount', '+', amount) }))
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('refundedAt', 'is', null);
  if (holder !== undefined) q = q.where('memberId', '=', holder);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Closes a card for a whole refund in one guarded UPDATE: what is left of its balance goes (its total
 * becomes what it used) and it is marked refunded, only while its total and use are still
 * `card`'s, it is not refunded and no live booking or waiting pending of a class not ended by `now`
 * holds it; false otherwise.
 */
export async function markCardRefunded(
  tx: Tx,
  storeId: number,
  card: { id: number; totalCount: number; usedCount: number },
  now: string,
): Promise<boolean> {
  const res = await tx
    .updateTable('memberCard')
    .set((eb) => ({ totalCount: eb.ref('usedCount'), refundedAt: now }))
    .where('storeId', '=', storeId)
    .where('id', '=', card.id)
    .where('usedCount', '=', card.usedCount)
    .where('totalCount', '=', card.totalCount)
    .where('refundedAt', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reservation as r')
            .innerJoin('timetable as t', 't.id', 'r.timetableId')
            .select('r.id')
            .where('r.memberCardId', '=', card.id)
            .where('r.status', 'in', LIVE_RESERVATION)
            .where('t.endTime', '>', now),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pending as p')
            .innerJoin('timetable as t', 't.id', 'p.timetableId')
            .select('p.id')
            .where('p.memberCardId', '=', card.id)
            .where('p.status', '=', PendingStatus.WAITING)
            .where('t.endTime', '>', now),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Reopens a card a refund closed (the refund was refused by its provider) in one guarded UPDATE: only
 * while it is still refunded and holds nothing beyond what it used; `back` is added to its total
 * again. False otherwise.
 */
export async function reopenRefundedCard(tx: Tx, storeId: number, id: number, back: number): Promise<boolean> {
  const res = await tx
    .updateTable('memberCard')
    .set((eb) => ({ totalCount: eb('totalCount', '+', back), refundedAt: null }))
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('refundedAt', 'is not', null)
    .whereRef('totalCount', '=', 'usedCount')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Takes `amount` off a card's total in one guarded UPDATE: only while it is not refunded and its
 * balance (total less used) still holds the amount; false otherwise.
 */
export async function takeFromCardTotal(tx: Tx, storeId: number, id: number, amount: number): Promise<boolean> {
  const res = await tx
    .updateTable('memberCard')
    .set((eb) => ({ totalCount: eb('totalCount', '-', amount) }))
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('refundedAt', 'is', null)
    .where((eb) => eb(eb('totalCount', '-', eb.ref('usedCount')), '>=', amount))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

// A card's life (issue 29).

/** The store setting of a card's life (key `card-life`, JSON), as stored: undefined when never saved. */
export async function cardLifeSettingText(ex: Executor, storeId: number): Promise<string | undefined> {
  const row = await ex
    .selectFrom('storeSetting')
    .select('value')
    .where('storeId', '=', storeId)
    .where('key', '=', CARD_LIFE_KEY)
    .executeTakeFirst();
  return row?.value;
}
export const CARD_LIFE_KEY = 'card-life';

/**
 * Whether a card was opened, as the cooling-off refund asks, at `now` (store-local): a class taken
 * on it (a booking signed in or whose class has started, a late cancel that kept its charge, a
 * pending signed in, missed, or whose class has started), a leave begun (one not refused or
 * withdrawn whose first day is today or earlier). A booking not yet taken and a leave not yet begun
 * do not open it (issue 42, item 9: `leaveAhead` says one is registered); `toCome` counts the bookings and pendings of classes not ended,
 * which keep the card from being closed (cancel them first: `markCardRefunded`).
 */
export async function cardOpenedFacts(ex: Executor, storeId: number, memberCardId: number, now: string) {
  const today = now.slice(0, 10);
  const row = await ex
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('reservation as r')
            .innerJoin('timetable as t', 't.id', 'r.timetableId')
            .select('r.id')
            .where('r.storeId', '=', storeId)
            .where('r.memberCardId', '=', memberCardId)
            .where((w) =>
              w.or([
                w('r.forfeited', '=', 1),
                w.and([w('r.status', 'in', LIVE_RESERVATION), w('t.startTime', '<=', now)]),
              ]),
            ),
        )
        .as('booked'),
      eb
        .exists(
          eb
            .selectFrom('pending as p')
            .innerJoin('timetable as t', 't.id', 'p.timetableId')
            .select('p.id')
            .where('p.storeId', '=', storeId)
            .where('p.memberCardId', '=', memberCardId)
            .where('p.status', '<>', PendingStatus.CANCELLED)
            .where((w) => w.or([w('p.status', '<>', PendingStatus.WAITING), w('t.startTime', '<=', now)])),
        )
        .as('held'),
      eb
        .exists(
          eb
            .selectFrom('cardLeave')
            .select('id')
            .where('storeId', '=', storeId)
            .where('memberCardId', '=', memberCardId)
            .where('status', 'in', ['pending', 'approved', 'ended'])
            .where('fromDate', '<=', today),
        )
        .as('leave'),
      eb
        .exists(
          eb
            .selectFrom('cardLeave')
            .select('id')
            .where('storeId', '=', storeId)
            .where('memberCardId', '=', memberCardId)
            .where('status', 'in', ['pending', 'approved'])
            .where('fromDate', '>', today),
        )
        .as('leaveAhead'),
      eb
        .selectFrom('reservation as r')
        .innerJoin('timetable as t', 't.id', 'r.timetableId')
        .select((c) => c.fn.countAll<number>().as('n'))
        .where('r.storeId', '=', storeId)
        .where('r.memberCardId', '=', memberCardId)
        .where('r.status', 'in', LIVE_RESERVATION)
        .where('t.endTime', '>', now)
        .as('booking'),
      eb
        .selectFrom('pending as p')
        .innerJoin('timetable as t', 't.id', 'p.timetableId')
        .select((c) => c.fn.countAll<number>().as('n'))
        .where('p.storeId', '=', storeId)
        .where('p.memberCardId', '=', memberCardId)
        .where('p.status', '=', PendingStatus.WAITING)
        .where('t.endTime', '>', now)
        .as('waiting'),
    ])
    .executeTakeFirstOrThrow();
  return {
    classTaken: Boolean(row.booked) || Boolean(row.held),
    leave: Boolean(row.leave),
    leaveAhead: Boolean(row.leaveAhead),
    toCome: Number(row.booking ?? 0) + Number(row.waiting ?? 0),
  };
}

// The card ledger and the money.

/** A card ledger entry of a card's sale, top-up or refund (not a booking's: see the booking trail); answers its id. */
export async function addLedgerEntry(tx: Tx, row: NewRow<'cardLedger'>): Promise<number> {
  const r = await tx.insertInto('cardLedger').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** One ledger entry of a card of the store, or undefined. */
export function findLedgerEntry(ex: Executor, storeId: number, memberCardId: number, id: number) {
  return ex
    .selectFrom('cardLedger')
    .select(['id', 'kind', 'amount'])
    .where('storeId', '=', storeId)
    .where('memberCardId', '=', memberCardId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Every ledger entry of a card, newest first (by its time), with the operator's name, its session (course and
 * start), the money taken or paid back with it and the id of a refund paying it back.
 */
export function cardLedgerRows(ex: Executor, storeId: number, memberCardId: number) {
  return (
    ex
      .selectFrom('cardLedger as l')
      .leftJoin('staff as s', 's.id', 'l.operatorId')
      .leftJoin('cardPayment as p', 'p.ledgerId', 'l.id')
      .leftJoin('cardPayment as back', 'back.refundOf', 'l.id')
      .leftJoin('payOrder as po', 'po.id', 'p.payOrderId')
      .leftJoin('timetable as t', 't.id', 'l.timetableId')
      .$call(withCourseNameIfAny)
      .leftJoin('member as bm', 'bm.id', 'l.memberId')
      .select([
        'bm.name as bookedBy',
        't.startTime as sessionStart',
        'l.id',
        'l.kind',
        'l.amount',
        'l.reservationId',
        'l.timetableId',
        's.name as operator',
        'l.remark',
        'l.createdAt',
        'p.amount as paidAmount',
        'p.method as paidMethod',
        'back.id as refundId',
        'po.orderNo as onlineOrderNo',
      ])
      .where('l.storeId', '=', storeId)
      .where('l.memberCardId', '=', memberCardId)
      // by when it happened (an entry may be written after a later one, e.g. a booking made earlier),
      // entries of one moment in the order written
      .orderBy('l.createdAt', 'desc')
      .orderBy('l.id', 'desc')
      .execute()
  );
}

/**
 * The online order whose money came in with a card's ledger entry (a top-up or sale paid online), or
 * undefined: such money goes back through the provider (线上订单), not at the desk.
 */
export async function onlineOrderOfEntry(ex: Executor, storeId: number, memberCardId: number, ledgerId: number) {
  const row = await ex
    .selectFrom('cardPayment as p')
    .innerJoin('payOrder as o', 'o.id', 'p.payOrderId')
    .select('o.orderNo')
    .where('p.storeId', '=', storeId)
    .where('p.memberCardId', '=', memberCardId)
    .where('p.ledgerId', '=', ledgerId)
    .executeTakeFirst();
  return row?.orderNo;
}

/**
 * The online order a card was bought with (its sale's money came through a provider), or undefined:
 * its refund goes back the same way (线上订单's refund), never as money paid out at the desk.
 */
export async function saleOrderOf(ex: Executor, storeId: number, memberCardId: number) {
  return ex
    .selectFrom('cardPayment as p')
    .innerJoin('payOrder as o', 'o.id', 'p.payOrderId')
    .select(['o.orderNo', 'o.provider'])
    .where('p.storeId', '=', storeId)
    .where('p.memberCardId', '=', memberCardId)
    .where('p.kind', '=', 'sale')
    .executeTakeFirst();
}

/**
 * Fen recorded as paid back (`card_payment` kind refund) against each of some ledger entries of the
 * store, by entry (entries with none are absent).
 */
export async function paidBackAgainst(ex: Executor, storeId: number, ledgerIds: number[]) {
  const out = new Map<number, number>();
  if (!ledgerIds.length) return out;
  const rows = await ex
    .selectFrom('cardPayment')
    .select(['ledgerId', sql<number>`sum(amount)`.as('fen')])
    .where('storeId', '=', storeId)
    .where('kind', '=', 'refund')
    .where('ledgerId', 'in', ledgerIds)
    .groupBy('ledgerId')
    .execute();
  for (const r of rows) out.set(Number(r.ledgerId), Number(r.fen));
  return out;
}

/** Records money the desk took (sale, top-up) or paid back (refund). */
export async function insertPayment(tx: Tx, row: NewRow<'cardPayment'>) {
  return tx.insertInto('cardPayment').values(row).execute();
}

/**
 * Records the money paying back one top-up, once: answers its id, or undefined when that top-up
 * already has its refund (a unique index on `refund_of`).
 */
export async function insertTopupRefund(tx: Tx, row: NewRow<'cardPayment'>): Promise<number | undefined> {
  const paid = await tx
    .insertInto('cardPayment')
    .values(row)
    .onConflict((oc) => oc.column('refundOf').doNothing())
    .returning('id')
    .executeTakeFirst();
  return paid?.id;
}

/**
 * Fen taken for a card (its sale and top-ups) or for one top-up, less what was paid back of it. A
 * transfer's fee (转卡手续费, kind `fee`) is the store's income, not money paid for the card: not counted.
 */
export async function paidFor(ex: Executor, storeId: number, memberCardId: number, topupId?: number) {
  let q = ex
    .selectFrom('cardPayment')
    .select(sql<number>`coalesce(sum(case when kind = 'refund' then -amount else amount end), 0)`.as('fen'))
    .where('storeId', '=', storeId)
    .where('memberCardId', '=', memberCardId)
    .where('kind', 'in', ['sale', 'topup', 'refund']);
  if (topupId) q = q.where((eb) => eb.or([eb('ledgerId', '=', topupId), eb('refundOf', '=', topupId)]));
  return Number((await q.executeTakeFirstOrThrow()).fen);
}

/**
 * The money paid for a card, by where it came from (issue 42, item 3): the desk's (its sales and
 * top-ups less its refunds, fen) and each online order that paid into it (a card order or a top-up,
 * oldest first) with what is left of it to refund (its amount less its refunds not refused: open
 * ones count, so money on its way back is not offered twice). A transfer's fee is not money paid
 * for the card.
 */
export async function paidSources(ex: Executor, storeId: number, memberCardId: number) {
  const [desk, orders] = await Promise.all([
    ex
      .selectFrom('cardPayment')
      .select(sql<number>`coalesce(sum(case when kind = 'refund' then -amount else amount end), 0)`.as('fen'))
      .where('storeId', '=', storeId)
      .where('memberCardId', '=', memberCardId)
      .where('kind', 'in', ['sale', 'topup', 'refund'])
      .where('payOrderId', 'is', null)
      .executeTakeFirstOrThrow(),
    ex
      .selectFrom('cardPayment as p')
      .innerJoin('payOrder as o', 'o.id', 'p.payOrderId')
      .select(['o.id', 'o.orderNo', 'o.provider', 'o.kind', 'o.amount', 'o.refunded'])
      .where('p.storeId', '=', storeId)
      .where('p.memberCardId', '=', memberCardId)
      .where('p.kind', 'in', ['sale', 'topup'])
      .orderBy('p.id')
      .execute(),
  ]);
  return {
    desk: Number(desk.fen),
    orders: orders.map((o) => ({
      id: o.id,
      orderNo: o.orderNo,
      provider: o.provider as 'wechat' | 'alipay',
      kind: o.kind === 'topup' ? ('topup' as const) : ('card' as const),
      left: Number(o.amount) - Number(o.refunded),
    })),
  };
}

/** The money taken and paid back for a member's cards, newest first, with the product and the staff's name. */
export function memberPaymentRows(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('cardPayment as p')
    .innerJoin('memberCard as mc', 'mc.id', 'p.memberCardId')
    .$call(joinCardProduct('cp'))
    .leftJoin('staff as s', 's.id', 'p.staffId')
    .select([
      'p.id',
      'p.memberCardId',
      'cp.cardName',
      'cp.bigType',
      'p.kind',
      'p.amount',
      'p.method',
      's.name as staff',
      'p.remark',
      'p.createdAt',
    ])
    .where('p.storeId', '=', storeId)
    .where('mc.memberId', '=', memberId)
    .orderBy('p.id', 'desc')
    .execute();
}

/**
 * A card's contract as the refund quote cites it: the template version, when signed (null: 待签约)
 * and its terms as sold (JSON, features/contracts); undefined for a card without one.
 */
export function contractTermsOfCard(ex: Executor, storeId: number, memberCardId: number) {
  return ex
    .selectFrom('cardContract as cc')
    .innerJoin('contractTemplate as ct', 'ct.id', 'cc.templateId')
    .select(['ct.version', 'cc.signedAt', 'cc.terms'])
    .where('cc.storeId', '=', storeId)
    .where('cc.memberCardId', '=', memberCardId)
    .executeTakeFirst();
}
