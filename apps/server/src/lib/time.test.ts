import { describe, expect, it } from 'vitest';
import { addMonths, formatLocal, localDateTime } from './time.ts';

describe('localDateTime', () => {
  const zones = ['Asia/Shanghai', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
  // Around daylight-saving changes (2026-03-08 New York, 2026-03-29 London, 2026-04-05 and
  // 2026-10-04 Lord Howe's half-hour shift, 2026-11-01 New York), a second apart near each change
  // and minutes apart around it, in an order that crosses quarters back and forth.
  const changes = [
    '2026-03-08T07:00:00Z',
    '2026-03-29T01:00:00Z',
    '2026-04-04T15:00:00Z',
    '2026-10-03T15:30:00Z',
    '2026-11-01T06:00:00Z',
  ];
  const instants: number[] = [];
  for (const c of changes) {
    const t = Date.parse(c);
    for (let s = -3; s <= 3; s++) instants.push(t + s * 1000);
    for (let m = -90; m <= 90; m += 7) instants.push(t + m * 60_000 + 123);
  }
  instants.push(Date.parse('2026-11-26T23:59:59.999Z'), Date.parse('2000-02-29T12:00:00Z'));

  it('shows what Intl shows, in every zone, around daylight-saving changes', () => {
    for (const tz of zones) {
      for (const at of [...instants, ...[...instants].reverse()])
        expect(localDateTime(tz, at), `${tz} ${at}`).toBe(formatLocal(tz, at));
    }
  });
});

describe('addMonths', () => {
  it('keeps the day, or takes the last day of a shorter month', () => {
    expect(addMonths('2026-12-07', 24)).toBe('2028-12-07');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });
});
