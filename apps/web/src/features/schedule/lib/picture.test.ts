import { describe, expect, it } from 'vitest';
import { dayPart } from './picture.ts';

describe('the timetable picture files classes by their start time', () => {
  it('上午 before 12:00, 下午 from 12:00 to 18:59, 晚上 from 19:00', () => {
    const at = (t: string) => dayPart(`2026-12-03 ${t}:00`);
    expect([at('06:30'), at('11:59')]).toEqual(['morning', 'morning']);
    expect([at('12:00'), at('12:10'), at('15:00'), at('18:59')]).toEqual([
      'afternoon',
      'afternoon',
      'afternoon',
      'afternoon',
    ]);
    expect([at('19:00'), at('21:30')]).toEqual(['evening', 'evening']);
  });
});
