import { DEDUCT_AT_BOOKING, MODULE_DEDUCTION_MODE } from '@studio/contract';
import type { Db } from '../db/index.ts';
import type { NewRow } from '../db/schema.ts';
import { createSession } from '../features/timetable/public.ts';
import type { StoreScope } from '../lib/context.ts';
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

  /** A session made through the engine (copies the course's limits and cards). */
  async session(o: {
    courseId: number;
    teacherId: number;
    startTime?: string;
    endTime?: string;
    reservableCount?: number;
    areaId?: number | null;
    bookId?: number | null;
  }) {
    const { id } = await this.db.transaction().execute((tx) =>
      createSession(tx, this.store, {
        courseId: o.courseId,
        teacherId: o.teacherId,
        areaId: o.areaId ?? null,
        bookId: o.bookId ?? null,
        startTime: o.startTime ?? `${FUTURE} 10:00:00`,
        endTime: o.endTime,
        reservableCount: o.reservableCount,
      }),
    );
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
