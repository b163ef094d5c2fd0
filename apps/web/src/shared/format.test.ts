import { BIG_TYPE_COUNT, BIG_TYPE_MONEY } from '@studio/contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ageLimitText,
  amountText,
  balanceText,
  deductModeText,
  genderLimitText,
  minutesBetween,
  OPERATE_TYPES,
  timeRange,
  toFen,
  unitOf,
  yuan,
} from './format.ts';

describe('money: integer fen on the wire, yuan with two decimals on screen', () => {
  it('shows fen as yuan with two decimals', () => {
    expect(yuan(0)).toBe('0.00');
    expect(yuan(5)).toBe('0.05');
    expect(yuan(1999)).toBe('19.99');
    expect(yuan(120000)).toBe('1200.00');
    expect(yuan(-350)).toBe('-3.50');
  });

  it('turns a typed yuan amount into whole fen, without float drift', () => {
    expect(toFen(19.99)).toBe(1999); // 19.99 * 100 is 1998.9999999999998
    expect(toFen(0.1 + 0.2)).toBe(30);
    expect(toFen(1.005)).toBe(100); // 1.005 is 1.00499999... in binary: no phantom fen
    expect(toFen(1200)).toBe(120000);
    expect(toFen(0)).toBe(0);
    for (const fen of [1, 99, 1999, 123456]) expect(toFen(Number(yuan(fen)))).toBe(fen);
  });

  it('words a card amount in its unit: classes for count cards, yuan for money cards', () => {
    expect(amountText(BIG_TYPE_COUNT, 8)).toBe('8 次');
    expect(amountText(BIG_TYPE_MONEY, 12050)).toBe('120.50 元');
    expect(unitOf(BIG_TYPE_COUNT)).toBe('次');
    expect(unitOf(BIG_TYPE_MONEY)).toBe('元');
  });

  it("words a card's balance as what is left of it", () => {
    expect(balanceText({ bigType: BIG_TYPE_COUNT, totalCount: 10, usedCount: 3 })).toBe('7 次');
    expect(balanceText({ bigType: BIG_TYPE_MONEY, totalCount: 50000, usedCount: 12550 })).toBe('374.50 元');
    expect(balanceText({ bigType: BIG_TYPE_COUNT, totalCount: 5, usedCount: 5 })).toBe('0 次');
  });
});

describe('format: what the screens say about a class', () => {
  it('writes a class time as the day, the start and the end', () => {
    expect(timeRange('2026-11-27 09:30:00', '2026-11-27 10:45:00')).toBe('2026-11-27 09:30 - 10:45');
  });

  it("words a class's gender limit", () => {
    expect(genderLimitText(2)).toBe('不限');
    expect(genderLimitText(1)).toBe('仅限男');
    expect(genderLimitText(0)).toBe('仅限女');
  });

  it("words a class's age limit: none, by age, or by birth date", () => {
    const none = { ageLimit: 0, syear: null, smonth: null, sday: null, eyear: null, emonth: null, eday: null };
    expect(ageLimitText(none)).toBe('不限');
    expect(ageLimitText({ ...none, ageLimit: 1, syear: 3, smonth: 6, eyear: 6, emonth: 0 })).toBe(
      '3岁6个月 至 6岁0个月',
    );
    expect(ageLimitText({ ...none, ageLimit: 1, syear: 4 })).toBe('4岁0个月 至 不限');
    expect(ageLimitText({ ...none, ageLimit: 2, syear: 2018, smonth: 3, sday: 9, eyear: 2020 })).toBe(
      '出生日期 2018-03-09 至 2020-01-01',
    );
    expect(ageLimitText({ ...none, ageLimit: 2, eyear: 2021, emonth: 12, eday: 31 })).toBe(
      '出生日期 不限 至 2021-12-31',
    );
  });

  it('names each kind of booking-history entry, 1 to 12', () => {
    expect(Object.keys(OPERATE_TYPES).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(OPERATE_TYPES[1]).toBe('用户预约');
    expect(OPERATE_TYPES[5]).toBe('迟到取消');
    expect(OPERATE_TYPES[12]).toBe('候补递补');
  });

  it('says what each deduction mode does', () => {
    expect(deductModeText(true)).toContain('签到后扣费');
    expect(deductModeText(false)).toContain('预约即扣费');
  });
});

describe("minutesBetween: the store clock's minutes, whatever the browser's zone", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('counts a class, with or without seconds, across midnight and a month end', () => {
    expect(minutesBetween('2026-11-27 09:30:00', '2026-11-27 10:45:00')).toBe(75);
    expect(minutesBetween('2026-11-27 09:30', '2026-11-27 10:15')).toBe(45);
    expect(minutesBetween('2026-11-30 23:30:00', '2026-12-01 00:30:00')).toBe(60);
    expect(minutesBetween('2026-11-27 10:00:00', '2026-11-27 10:00:00')).toBe(0);
  });

  it("ignores the browser's daylight saving (a desk PC set to New York, the night clocks go forward)", () => {
    process.env.TZ = 'America/New_York';
    // In New York 02:00-03:00 of 2026-03-08 does not exist; the store's clock (Shanghai) has it.
    expect(new Date(2026, 2, 8, 3, 30).getTime() - new Date(2026, 2, 8, 1, 30).getTime()).toBe(3_600_000);
    expect(minutesBetween('2026-03-08 01:30:00', '2026-03-08 03:30:00')).toBe(120);
  });
});
