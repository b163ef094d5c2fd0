import { Msg } from '@studio/contract';
import { describe, expect, it } from 'vitest';
import { cardUnusableReason } from './rules.ts';

const base = {
  card: {
    memberId: 1,
    cardId: 7,
    totalCount: 10,
    usedCount: 0,
    expireTime: '2026-12-31 23:59:59',
    frozen: 0,
    leavePeriods: '[]',
    sharedWith: '[]',
    activateTime: '2026-01-01 09:00:00' as string | null,
    activation: 'date',
  },
  product: { cardType: 1, perCount: 2 },
  memberId: 1,
  allowedCardIds: [7],
  at: '2026-06-01 10:00:00',
  studentCount: 1,
};

describe('card rules', () => {
  it('accepts a good card', () => expect(cardUnusableReason(base)).toBeNull());
  it('refuses another member’s card', () =>
    expect(cardUnusableReason({ ...base, memberId: 2 })).toBe(Msg.cardNotOwned));
  it('refuses a card not allowed for the course', () =>
    expect(cardUnusableReason({ ...base, allowedCardIds: [8] })).toBe(Msg.cardNotAllowed));
  it('refuses a frozen card', () =>
    expect(cardUnusableReason({ ...base, card: { ...base.card, frozen: 1 } })).toBe(Msg.cardFrozen));
  it("refuses a class on a day of the card's leave, naming the leave", () => {
    const card = { ...base.card, leavePeriods: JSON.stringify([['2026-05-20', '2026-06-01']]) };
    expect(cardUnusableReason({ ...base, card })).toBe('该卡请假中（5月20日至6月1日），不能预约');
    expect(cardUnusableReason({ ...base, card, at: '2026-06-02 00:00:00' })).toBeNull();
  });
  it('refuses a class before the day the card starts (指定日期开卡), from that day on books it', () => {
    const card = { ...base.card, activateTime: '2026-06-03 00:00:00' };
    expect(cardUnusableReason({ ...base, card, at: '2026-06-02 23:00:00' })).toBe(
      '会员卡2026年6月3日开卡，此前不能约课',
    );
    expect(cardUnusableReason({ ...base, card, at: '2026-06-03 07:00:00' })).toBeNull();
    // 首次上课开卡: started by its first class, a sooner class starts it sooner
    expect(
      cardUnusableReason({ ...base, card: { ...card, activation: 'first_class' }, at: '2026-06-02 23:00:00' }),
    ).toBeNull();
  });
  it('refuses a card expired before the class starts', () =>
    expect(cardUnusableReason({ ...base, at: '2027-01-01 09:00:00' })).toBe(Msg.cardExpired));
  it('ignores the expiry of a card that never expires', () =>
    expect(
      cardUnusableReason({ ...base, product: { cardType: 2, perCount: 2 }, at: '2030-01-01 09:00:00' }),
    ).toBeNull());
  it('needs perCount x studentCount', () => {
    expect(cardUnusableReason({ ...base, studentCount: 5 })).toBeNull();
    expect(cardUnusableReason({ ...base, studentCount: 6 })).toBe(Msg.cardBalance);
  });
  it('refuses a card at zero balance', () =>
    expect(cardUnusableReason({ ...base, card: { ...base.card, usedCount: 10 } })).toBe(Msg.cardBalance));
});
