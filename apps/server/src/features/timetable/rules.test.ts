import { Msg } from '@studio/contract';
import { describe, expect, it } from 'vitest';
import { ageInMonths, ageRefusal, genderRefusal } from './rules.ts';

const none = { genderLimit: 2, syear: null, smonth: null, sday: null, eyear: null, emonth: null, eday: null };

describe('gender and age limits', () => {
  it('counts whole months, a month only once its day is reached', () => {
    expect(ageInMonths('2020-01-15', '2021-01-14')).toBe(11);
    expect(ageInMonths('2020-01-15', '2021-01-15')).toBe(12);
    expect(ageInMonths('2020-01-31', '2020-03-01')).toBe(1);
  });

  it('reads the gender limit as 2 all, 1 male, otherwise female', () => {
    expect(genderRefusal(2, 0)).toBeNull();
    expect(genderRefusal(1, 1)).toBeNull();
    expect(genderRefusal(1, 2)).toBe(Msg.genderLimited);
    expect(genderRefusal(0, 2)).toBeNull();
    expect(genderRefusal(0, 0)).toBe(Msg.genderLimited);
  });

  it('leaves an open bound of an age range open', () => {
    const minOnly = { ...none, ageLimit: 1, syear: 5 };
    expect(ageRefusal(minOnly, '2000-01-01', '2030-01-01')).toBeNull();
    expect(ageRefusal(minOnly, '2026-01-02', '2030-01-01')).toBe(Msg.ageLimited);
    const maxOnly = { ...none, ageLimit: 1, eyear: 0, emonth: 18 };
    expect(ageRefusal(maxOnly, '2028-07-01', '2030-01-01')).toBeNull();
    expect(ageRefusal(maxOnly, '2028-06-01', '2030-01-01')).toBe(Msg.ageLimited);
  });

  it('fills a missing month or day of a birth-date range to cover the whole year or month', () => {
    const years = { ...none, ageLimit: 2, syear: 2020, eyear: 2021 };
    expect(ageRefusal(years, '2020-01-01', '2030-01-01')).toBeNull();
    expect(ageRefusal(years, '2021-12-31', '2030-01-01')).toBeNull();
    expect(ageRefusal(years, '2019-12-31', '2030-01-01')).toBe(Msg.ageLimited);
    expect(ageRefusal(years, '2022-01-01', '2030-01-01')).toBe(Msg.ageLimited);
    expect(ageRefusal({ ...none, ageLimit: 0 }, null, '2030-01-01')).toBeNull();
    expect(ageRefusal(years, null, '2030-01-01')).toBe(Msg.ageLimited);
  });
});
