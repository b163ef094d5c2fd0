import { describe, expect, it } from 'vitest';
import dayjs from './dayjs.ts';
import { storeDateTime } from './store-time.ts';
import { DEFAULT_TIME_ZONE, timeZoneOptions } from './timezones.ts';

describe('dayjs as the app sets it up: simplified Chinese, Monday first, week one holds January 4th', () => {
  it('starts and ends a week on Monday and Sunday, a Sunday belonging to the week before', () => {
    // 2026-11-29 is a Sunday, 2026-11-30 a Monday
    expect(dayjs('2026-11-29').startOf('week').format('YYYY-MM-DD')).toBe('2026-11-23');
    expect(dayjs('2026-11-29').endOf('week').format('YYYY-MM-DD')).toBe('2026-11-29');
    expect(dayjs('2026-11-30').startOf('week').format('YYYY-MM-DD')).toBe('2026-11-30');
  });

  it('numbers weeks so that week one holds January 4th (ISO weeks)', () => {
    // 2021-01-03 (a Sunday) still belongs to the last week of 2020; 2021-01-04 starts week 1
    expect(dayjs('2021-01-03').week()).toBe(53);
    expect(dayjs('2021-01-04').week()).toBe(1);
    // 2026-01-01 is a Thursday: its week holds January 4th, so it is week 1
    expect(dayjs('2026-01-01').week()).toBe(1);
    expect(dayjs('2026-11-27').week()).toBe(dayjs('2026-11-27').isoWeek());
  });

  it('writes day and month names in simplified Chinese', () => {
    expect(dayjs('2026-11-27').format('dddd')).toBe('星期五');
    expect(dayjs('2026-11-30').format('dd')).toBe('一');
    expect(dayjs('2026-11-27').format('MMMM')).toBe('十一月');
  });
});

describe("the store's time zone", () => {
  it('defaults to Beijing time, offered first by that name', () => {
    expect(DEFAULT_TIME_ZONE).toBe('Asia/Shanghai');
    const options = timeZoneOptions();
    expect(options.find((o) => o.value === 'Asia/Shanghai')?.label).toBe('北京时间');
    expect(options.some((o) => o.value === 'America/New_York' && o.label === 'America/New_York')).toBe(true);
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
  });

  it("every offered zone reads an instant on that zone's wall clock", () => {
    const at = Date.parse('2026-11-27T08:51:30Z');
    for (const { value } of timeZoneOptions())
      expect(storeDateTime(value, at)).toMatch(/^2026-11-2[678] \d\d:\d\d:30$/);
  });

  it("a store day read with dayjs is the store's, not the browser's (the desk's today at 01:00 Beijing)", () => {
    const zone = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const at = Date.parse('2026-11-26T17:00:00Z'); // 01:00 on the 27th in Beijing, still the 26th in UTC
      expect(dayjs(at).format('YYYY-MM-DD')).toBe('2026-11-26');
      expect(dayjs(storeDateTime('Asia/Shanghai', at)).format('YYYY-MM-DD HH:mm')).toBe('2026-11-27 01:00');
      expect(dayjs(storeDateTime('Asia/Shanghai', at)).startOf('week').format('YYYY-MM-DD')).toBe('2026-11-23');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
