import { DEDUCT_AT_BOOKING, MODULE_DEDUCTION_MODE } from '@studio/contract';
import type { Db } from '../src/db/index.ts';
import type { NewRow } from '../src/db/schema.ts';
import { requireSessionRefs, sessionRow } from '../src/features/timetable/public.ts';
import { insertSession } from '../src/features/timetable/session-repository.ts';
import type { StoreScope } from '../src/lib/context.ts';
import { addMinutes, localDateTime } from '../src/lib/time.ts';
import type { Factory } from './factory.ts';

/** A date well in the future, so sessions on it can be booked whatever today is. */
export const FUTURE = '2099-06-01';

/** Sessions, bookable scenes and members with cards, on top of the plain Factory. */
export class EngineFactory {
  readonly store: StoreScope;
  constructor(
    readonly f: Factory,
    timezone = 'Asia/Shanghai',
  ) {
    this.store = { id: f.storeId, name: '', timezone };
  }

  get db(): Db {
    return this.f.db;
  }

  /** A teacher, a card product and a course that card may book. */
  async scene(o: { course?: Partial<NewRow<'course'>>; product?: Partial<NewRow<'cardProduct'>> } = {}) {
    const teacher = await this.f.teacher();
    const product = await this.f.cardProduct(o.product);
    const course = await this.f.course({ cardIds: [product.id], ...o.course });
    return { teacher, product, course };
  }

  /**
   * A session as the engine's createSession makes one (the course's limits, colour, duration,
   * capacity and allowed cards; every id the store's), but written without the clash check on
   * purpose: suites stage classes of one teacher or room at one time. Every writer of the app refuses
   * that (timetable/clashes.ts); the suites of the clash rule make their sessions through the API.
   */
  async session(o: {
    courseId: number;
    teacherId: number;
    startTime?: string;
    endTime?: string;
    reservableCount?: number;
    venueId?: number | null;
    materialId?: number | null;
  }) {
    const id = await this.db.transaction().execute(async (tx) => {
      const refs = {
        courseId: o.courseId,
        teacherId: o.teacherId,
        venueId: o.venueId ?? null,
        materialId: o.materialId ?? null,
      };
      const course = (await requireSessionRefs(tx, this.store.id, [refs])).get(o.courseId)!;
      const startTime = o.startTime ?? `${FUTURE} 10:00:00`;
      const slot = {
        ...refs,
        startTime,
        endTime: o.endTime ?? addMinutes(startTime, course.duration),
        reservableCount: o.reservableCount ?? course.count,
        realCount: 0,
        isOnline: 0,
      };
      const now = localDateTime(this.store.timezone);
      return insertSession(tx, sessionRow(this.store.id, slot, course, now), course.cardIds);
    });
    return this.db.selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** A member holding one card of `productId`. */
  async memberWithCard(
    productId: number,
    o: { member?: Partial<NewRow<'member'>>; card?: Partial<NewRow<'memberCard'>> } = {},
  ) {
    const member = await this.f.member(o.member);
    const card = await this.f.memberCard(member.id, productId, o.card);
    return { member, card };
  }

  /** Store module 6: 0 deducts at booking, 1 at sign-in. */
  async setMode(status: 0 | 1 = DEDUCT_AT_BOOKING) {
    await this.db
      .updateTable('storeModule')
      .set({ status })
      .where('storeId', '=', this.store.id)
      .where('moduleId', '=', MODULE_DEDUCTION_MODE)
      .execute();
  }

  async sessionRow(id: number) {
    return this.db.selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async cardRow(id: number) {
    const c = await this.db.selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { ...c, usedCount: Number(c.usedCount), totalCount: Number(c.totalCount) };
  }
}
