import crypto from 'node:crypto';
import { OperateType, WaitStatus } from '@studio/contract';
import type { Db } from '../../src/db/index.ts';
import { addDays } from '../../src/lib/time.ts';
import { randomMobile, type Factory } from '../factory.ts';
import { hashPassword } from '../../src/auth/password.ts';
import { storeCards, type BookingCard } from '../../src/features/cards/public.ts';
import { bookSet, liveSession, sessionForRules } from '../../src/features/timetable/public.ts';

/** One row of every kind a payload can name, all in one store. */
export interface World {
  storeId: number;
  storeName: string;
  teacher: number;
  area: number;
  material: number;
  chapter: number;
  cardProduct: number;
  course: number;
  member: number;
  memberCard: number;
  /** A second member with a card, free to be booked into `session`. */
  member2: number;
  memberCard2: number;
  session: number;
  /** A session with no bookings (safe to delete or edit). */
  emptySession: number;
  reservation: number;
  pending: number;
  /** A weekly template row with one fixed student. */
  fix: number;
  /** A top-up of `memberCard` (its ledger entry), paid in cash. */
  topup: number;
  /** The money record (card_payment) of `topup`: a sale whose 销售员 a manager may change. */
  topupPayment: number;
  /** `member2` waiting for a seat of `emptySession`. */
  wait: number;
  /** A front-desk staff member of the store (a post). */
  staff: number;
  /** An audit entry of the store. */
  audit: number;
  /** A lead (潜客) in the pool (公海), of a mobile no member holds. */
  lead: number;
  /** A second lead of the pool, 已约体验 by `leadTrial`: its trial class (体验课) booked into `session`. */
  trialLead: number;
  leadTrial: number;
  /** `member2`'s pending request to delete their account (个人信息). */
  erasureRequest: number;
  /** A 转介绍奖励 waiting (待发放): `member` referred `member2` (a lead of their mobile); `member` holds a 次卡. */
  referralReward: number;
  /**
   * Issue 29: two cards of `member` of a product allowing leave (valid for years), the first with an
   * approved leave (`activeLeave`, 2031-05-01 to 05-05), the second with a request waiting for the
   * desk (`leave`, 2031-04-01 to 04-03).
   */
  leaveCard: number;
  leaveCard2: number;
  activeLeave: number;
  leave: number;
  /** A lesson type (私教 1对1) given by `teacher` in `area` using `equipment`; a machine; an exception of `teacher`'s hours. */
  lessonType: number;
  equipment: number;
  hoursException: number;
  /** The number of an online order (待支付, by WeChat Native) of `member` for `cardProduct`. */
  payOrderNo: string;
  /** Every name and mobile of the rows above (to look for leaks). */
  secrets: string[];
}

export type Kind = Exclude<keyof World, 'storeId' | 'storeName' | 'secrets'>;

const START = '2031-03-03 09:00:00';
const END = '2031-03-03 10:00:00';

async function session(db: Db, storeId: number, w: Partial<World>, start: string, end: string) {
  const t = await db
    .insertInto('timetable')
    .values({
      storeId,
      courseId: w.course!,
      teacherId: w.teacher!,
      areaId: w.area!,
      bookId: w.material!,
      startTime: start,
      endTime: end,
      reservableCount: 10,
      realCount: 0,
      isOnline: 0,
      meetingId: null,
      meetingInfo: null,
      meetingError: null,
      color: '#1677ff',
      deleted: 0,
      createdAt: '2026-01-01 00:00:00',
      genderLimit: 2,
      ageLimit: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('timetableCard').values({ storeId, timetableId: t.id, cardId: w.cardProduct! }).execute();
  return t.id;
}

/**
 * Makes one row of each kind in the factory's store, straight in the database, with a booking
 * (deducted, with its history and ledger rows) and a waiting pending item on `session`.
 */
let deskHash: Promise<string> | undefined;

export async function makeWorld(f: Factory, tag: string): Promise<World> {
  const db = f.db;
  const storeId = f.storeId;
  const store = await db.selectFrom('store').select('name').where('id', '=', storeId).executeTakeFirstOrThrow();
  const teacher = await f.teacher({ name: `${tag}老师` });
  const area = await f.area({ name: `${tag}场地` });
  const material = await f.material({ name: `${tag}教材` });
  const chapter = await f.material({ name: `${tag}章节`, parentId: material.id, level: 2 });
  const product = await f.cardProduct({ cardName: `${tag}次卡` });
  const course = await f.course({ name: `${tag}课程`, cardIds: [product.id] });
  const member = await f.member({ name: `${tag}会员甲` });
  const card = await f.memberCard(member.id, product.id, { totalCount: 20 });
  const member2 = await f.member({ name: `${tag}会员乙` });
  const card2 = await f.memberCard(member2.id, product.id, { totalCount: 20 });
  const w: Partial<World> = {
    storeId,
    storeName: store.name,
    teacher: teacher.id,
    area: area.id,
    material: material.id,
    chapter: chapter.id,
    cardProduct: product.id,
    course: course.id,
    member: member.id,
    memberCard: card.id,
    member2: member2.id,
    memberCard2: card2.id,
  };
  const lessonType = await f.course({ name: `${tag}私教`, kind: 'one_on_one', maxMembers: 1, count: 1 });
  const equipment = await db
    .insertInto('equipment')
    .values({ storeId, name: `${tag}器械`, count: 2, areaId: area.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('lessonTeacher')
    .values({ storeId, courseId: lessonType.id, teacherId: teacher.id, level: null })
    .execute();
  await db.insertInto('lessonRoom').values({ storeId, courseId: lessonType.id, areaId: area.id }).execute();
  await db
    .insertInto('lessonEquipment')
    .values({ storeId, courseId: lessonType.id, equipmentId: equipment.id, perMember: 1 })
    .execute();
  const hoursException = await db
    .insertInto('teacherHoursException')
    .values({ storeId, teacherId: teacher.id, date: '2031-03-04', kind: 'off', createdAt: '2026-01-01 00:00:00' })
    .returning('id')
    .executeTakeFirstOrThrow();
  w.lessonType = lessonType.id;
  w.equipment = equipment.id;
  w.hoursException = hoursException.id;
  const topup = await db
    .insertInto('cardLedger')
    .values({ storeId, memberCardId: card.id, kind: 'topup', amount: 5, createdAt: '2026-01-01 08:00:00' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('memberCard').set({ totalCount: 25 }).where('id', '=', card.id).execute();
  const topupPaid = await db
    .insertInto('cardPayment')
    .values({
      storeId,
      memberCardId: card.id,
      ledgerId: topup.id,
      kind: 'topup',
      amount: 5000,
      method: 'cash',
      createdAt: '2026-01-01 08:00:00',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  w.topup = topup.id;
  w.topupPayment = topupPaid.id;
  const leaveProduct = await f.cardProduct({
    cardName: `${tag}请假卡`,
    cardType: 1,
    validDays: 3000,
    leaveAllowed: 1,
  });
  const leaveCardOf = (leaveDays: number, periods: [string, string][]) =>
    f.memberCard(member.id, leaveProduct.id, {
      totalCount: 10,
      createdAt: '2026-01-01 08:00:00',
      activateTime: '2026-01-01 08:00:00',
      validDays: 3000,
      leaveDays,
      leavePeriods: JSON.stringify(periods),
      expireTime: `${addDays('2026-01-01', 3000 + leaveDays)} 23:59:59`,
    });
  const leaveCard = await leaveCardOf(5, [['2031-05-01', '2031-05-05']]);
  const leaveCard2 = await leaveCardOf(0, []);
  const leaveRow = (memberCardId: number, from: string, to: string, days: number, status: string) =>
    db
      .insertInto('cardLeave')
      .values({
        storeId,
        memberCardId,
        memberId: member.id,
        fromDate: from,
        toDate: to,
        days,
        reason: `${tag}请假`,
        status,
        requestedBy: status === 'pending' ? 'member' : 'staff',
        createdAt: '2026-01-01 08:00:00',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  w.leaveCard = leaveCard.id;
  w.leaveCard2 = leaveCard2.id;
  w.activeLeave = (await leaveRow(leaveCard.id, '2031-05-01', '2031-05-05', 5, 'approved')).id;
  w.leave = (await leaveRow(leaveCard2.id, '2031-04-01', '2031-04-03', 3, 'pending')).id;
  w.payOrderNo = `P20310303${storeId}${crypto.randomInt(1e9)}`;
  await db
    .insertInto('payOrder')
    .values({
      storeId,
      orderNo: w.payOrderNo,
      memberId: member.id,
      kind: 'card',
      productId: product.id,
      memberCardId: null,
      amount: 30000,
      method: 'wechat_native',
      provider: 'wechat',
      description: product.cardName,
      createdAt: '2031-03-03 08:00:00',
      expireAt: '2031-03-03 08:15:00',
      paidAt: null,
      closedAt: null,
      providerTradeId: null,
      staffId: null,
    })
    .execute();
  w.session = await session(db, storeId, w, START, END);
  w.emptySession = await session(db, storeId, w, '2031-03-04 09:00:00', '2031-03-04 10:00:00');
  const wait = await db
    .insertInto('waitlist')
    .values({
      storeId,
      timetableId: w.emptySession,
      memberId: member2.id,
      memberCardId: card2.id,
      studentCount: 1,
      status: WaitStatus.WAITING,
      createTime: '2026-01-01 08:00:00',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('timetable').set({ waitCount: 1 }).where('id', '=', w.emptySession).execute();
  w.wait = wait.id;

  // The booking and the waiting pending item (each holding a seat) through the engine's set writer.
  const now = '2026-01-01 08:00:00';
  const row = await liveSession(db, storeId, w.session);
  const cards = await storeCards(db, storeId, [card.id, card2.id]);
  const holder = (c: BookingCard) => ({ id: c.memberId, name: c.memberName, gender: c.gender, birthday: c.birthday });
  const booking = (c: BookingCard, withCard: boolean) => ({
    session: sessionForRules(row, [product.id]),
    member: holder(c),
    card: withCard ? c : null,
    studentCount: 1,
    remark: null,
  });
  const options = { now, operatorId: null, operateType: OperateType.ADMIN_BOOKED };
  await db.transaction().execute(async (tx) => {
    [w.reservation] = await bookSet(tx, storeId, [booking(cards.get(card.id)!, true)], { ...options, mode: 0 });
    [w.pending] = await bookSet(tx, storeId, [booking(cards.get(card2.id)!, false)], { ...options, mode: 1 });
  });
  const fix = await db
    .insertInto('fixTimetable')
    .values({
      storeId,
      weekday: 3,
      time: '18:00',
      courseId: course.id,
      teacherId: teacher.id,
      areaId: area.id,
      bookId: null,
      reservableCount: 10,
      createdAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('fixStudent')
    .values({ storeId, fixId: fix.id, memberCardId: card.id, studentCount: 1 })
    .execute();
  w.fix = fix.id;
  const staffRow = await db
    .insertInto('staff')
    .values({
      username: `desk_${storeId}_${fix.id}`,
      mobile: null,
      name: `前台${tag}`,
      passwordHash: await (deskHash ??= hashPassword('world-desk-2026')),
      createdAt: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('post').values({ staffId: staffRow.id, storeId, role: 'desk', teacherId: null }).execute();
  w.staff = staffRow.id;
  const entry = await db
    .insertInto('auditLog')
    .values({
      storeId,
      at: Date.now(),
      actorKind: 'system',
      staffId: null,
      memberId: null,
      actorName: '系统',
      call: 'world',
      kind: 'system',
      target: '',
      summary: '测试数据',
      beforeJson: null,
      afterJson: null,
      undoJson: null,
      undoOf: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  w.audit = entry.id;
  /** A lead of the store, in the pool (公海): the columns the rows here leave empty, then `row`'s. */
  const insertLead = (row: {
    name: string;
    mobile: string;
    source: string;
    referrerMemberId?: number;
    stage?: string;
    contactedAt?: string;
    trialBookedAt?: string;
  }) =>
    db
      .insertInto('lead')
      .values({
        storeId,
        interests: null,
        notes: null,
        preferredTimes: null,
        ownerId: null,
        lostReason: null,
        nextFollowUp: null,
        touchedAt: now,
        createdBy: null,
        createdAt: now,
        convertedCardId: null,
        convertedMemberId: null,
        convertedOwnerId: null,
        convertedSource: null,
        convertedAt: null,
        ...row,
      })
      .returning(['id', 'name', 'mobile'])
      .executeTakeFirstOrThrow();
  const leadRow = await insertLead({ name: `${tag}潜客`, mobile: randomMobile(), source: '到店' });
  w.lead = leadRow.id;
  const referred = await insertLead({
    name: `${tag}会员乙`,
    mobile: member2.mobile,
    source: '转介绍',
    referrerMemberId: member.id,
  });
  const reward = await db
    .insertInto('referralReward')
    .values({
      storeId,
      leadId: referred.id,
      referrerMemberId: member.id,
      friendMemberId: member2.id,
      triggerOn: 'card',
      kind: 'lessons',
      amount: 1,
      status: 'pending',
      createdAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  w.referralReward = reward.id;
  const trialLead = await insertLead({
    name: `${tag}体验潜客`,
    mobile: randomMobile(),
    source: '电话',
    stage: 'trial_booked',
    contactedAt: now,
    trialBookedAt: now,
  });
  w.trialLead = trialLead.id;
  const trial = await db
    .insertInto('leadTrial')
    .values({
      storeId,
      leadId: trialLead.id,
      timetableId: w.session,
      stageBefore: 'contacted',
      teacherId: null,
      operatorId: null,
      createTime: now,
      attendedTime: null,
      cancelTime: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('timetable')
    .set((eb) => ({ realCount: eb('realCount', '+', 1) }))
    .where('id', '=', w.session)
    .execute();
  w.leadTrial = trial.id;
  const erasure = await db
    .insertInto('erasureRequest')
    .values({ storeId, memberId: member2.id, reason: null, requestedAt: now, dueDate: addDays(now.slice(0, 10), 15) })
    .returning('id')
    .executeTakeFirstOrThrow();
  w.erasureRequest = erasure.id;
  w.secrets = [
    leadRow.name,
    leadRow.mobile,
    store.name,
    w.payOrderNo,
    teacher.name,
    teacher.mobile ?? '',
    area.name,
    material.name,
    chapter.name,
    product.cardName,
    course.name,
    member.name,
    member.mobile,
    member2.name,
    member2.mobile,
  ].filter(Boolean);
  return w as World;
}
