import { NotifyQuietReason } from '@studio/contract';
import { describe, expect, it } from 'vitest';
import { quietVerdict } from './rules.ts';

const night = { quietFrom: '22:00', quietTo: '08:00' };
const noon = { quietFrom: '12:00', quietTo: '14:00' };

describe('the quiet hours: nothing goes out inside them', () => {
  it('outside them: at once, whatever the class', () => {
    expect(quietVerdict('2099-03-11 21:59:00', night, '2099-03-11 22:30:00')).toEqual({ go: 'now' });
    expect(quietVerdict('2099-03-12 08:00:00', night)).toEqual({ go: 'now' });
    expect(quietVerdict('2099-03-12 11:00:00', { quietFrom: '00:00', quietTo: '00:00' })).toEqual({ go: 'now' });
  });

  it('across midnight (22:00-08:00): at 08:00 the next day before midnight, the same day after it', () => {
    const waiting = { go: 'later', at: '2099-03-12 08:00:00', reason: NotifyQuietReason.waiting('08:00') };
    expect(quietVerdict('2099-03-11 22:00:00', night)).toEqual(waiting);
    expect(quietVerdict('2099-03-11 23:59:00', night, '2099-03-12 08:01:00')).toEqual(waiting);
    expect(quietVerdict('2099-03-12 00:00:00', night, '2099-03-12 09:00:00')).toEqual(waiting);
    expect(quietVerdict('2099-03-12 07:59:00', night)).toEqual(waiting);
  });

  it('a message about a class that has started by their end (or starts as they end) is dropped, saying why', () => {
    const dropped = { go: 'dropped', reason: NotifyQuietReason.classStarted('08:00') };
    expect(quietVerdict('2099-03-11 22:30:00', night, '2099-03-12 07:30:00')).toEqual(dropped);
    expect(quietVerdict('2099-03-12 06:00:00', night, '2099-03-12 08:00:00')).toEqual(dropped);
    expect(quietVerdict('2099-03-11 23:00:00', night, '2099-03-11 23:30:00')).toEqual(dropped);
  });

  it('within one day (12:00-14:00)', () => {
    expect(quietVerdict('2099-03-12 13:00:00', noon, '2099-03-12 15:00:00')).toEqual({
      go: 'later',
      at: '2099-03-12 14:00:00',
      reason: NotifyQuietReason.waiting('14:00'),
    });
    expect(quietVerdict('2099-03-12 12:00:00', noon, '2099-03-12 13:30:00')).toEqual({
      go: 'dropped',
      reason: NotifyQuietReason.classStarted('14:00'),
    });
    expect(quietVerdict('2099-03-12 14:00:00', noon, '2099-03-12 14:10:00')).toEqual({ go: 'now' });
  });
});
