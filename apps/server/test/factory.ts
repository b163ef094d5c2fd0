import crypto from 'node:crypto';
import { BIG_TYPE_COUNT, CARD_TYPE_NO_EXPIRY } from '@studio/contract';
import type { Db } from '../src/db/index.ts';
import type { NewRow } from '../src/db/schema.ts';

const NOW = '2026-01-01 00:00:00';
let n = 0;
const uniq = () => `${++n}${crypto.randomBytes(2).toString('hex')}`;
/** A mobile number unlikely to collide within a test database. */
export const randomMobile = () => `1${String(3_000_000_000 + crypto.randomInt(0, 999_999_999)).slice(0, 10)}`;

/** Makes rows for one store straight in the database; every call takes overrides. */
export class Factory {
  constructor(
    readonly db: Db,
    readonly storeId: number,
  ) {}

  async teacher(o: Partial<NewRow<'teacher'>> = {}) {
    return this.db
      .insertInto('teacher')
      .values({ storeId: this.storeId, name: `老师${uniq()}`, mobile: randomMobile(), deleted: 0, ...o })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async area(o: Partial<NewRow<'area'>> = {}) {
    return this.db
      .insertInto('area')
      .values({ storeId: this.storeId, name: `场地${uniq()}`, parentId: null, sort: 0, ...o })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async material(o: Partial<NewRow<'material'>> = {}) {
    return this.db
      .insertInto('material')
      .values({ storeId: this.storeId, name: `教材${uniq()}`, parentId: null, level: 1, sort: 0, ...o })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async cardProduct(o: Partial<NewRow<'cardProduct'>> = {}) {
    return this.db
      .insertInto('cardProduct')
      .values({
        storeId: this.storeId,
        cardName: `次卡${uniq()}`,
        bigType: BIG_TYPE_COUNT,
        cardType: CARD_TYPE_NO_EXPIRY,
        perCount: 1,
        price: 100_00,
        validDays: null,
        enabled: 1,
        deleted: 0,
        ...o,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A course; `cardIds` are the card products allowed to book it. */
  async course(o: Partial<NewRow<'course'>> & { cardIds?: number[] } = {}) {
    const { cardIds = [], ...rest } = o;
    const course = await this.db
      .insertInto('course')
      .values({
        storeId: this.storeId,
        name: `课程${uniq()}`,
        count: 10,
        duration: 60,
        color: '#1677ff',
        genderLimit: 2,
        ageLimit: 0,
        enabled: 1,
        deleted: 0,
        ...rest,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (cardIds.length) {
      await this.db
        .insertInto('courseCard')
        .values(cardIds.map((cardId) => ({ storeId: this.storeId, courseId: course.id, cardId })))
        .execute();
    }
    return course;
  }

  async member(o: Partial<NewRow<'member'>> = {}) {
    return this.db
      .insertInto('member')
      .values({
        storeId: this.storeId,
        name: `会员${uniq()}`,
        mobile: randomMobile(),
        gender: 1,
        birthday: '1990-01-01',
        createdAt: NOW,
        ...o,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A card a member holds (used 0 unless given). */
  async memberCard(memberId: number, cardId: number, o: Partial<NewRow<'memberCard'>> = {}) {
    return this.db
      .insertInto('memberCard')
      .values({
        storeId: this.storeId,
        memberId,
        cardId,
        totalCount: 10,
        usedCount: 0,
        expireTime: null,
        frozen: 0,
        createdAt: NOW,
        // started at the sale (issue 29: 售卡即开卡), as the desk's sale of a product without a start rule
        activateTime: NOW,
        ...o,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
