import { describe, expect, it } from 'vitest';
import { balanceLines, maskMobile } from './receipt-text.ts';

describe('receipt text', () => {
  it('hides the middle four digits of a mobile', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
    expect(maskMobile('123')).toBe('123');
  });

  it('prints what the card holds: whole classes, yuan, or a period card by its expiry', () => {
    const card = { cardExpireTime: null, cardPerCount: 1 };
    expect(balanceLines({ ...card, bigType: 1, cardLeft: 8 })).toEqual(['剩余：8 次']);
    expect(balanceLines({ ...card, bigType: 2, cardLeft: 95_050, cardPerCount: 5000 })).toEqual(['剩余：950.50 元']);
    expect(balanceLines({ bigType: 1, cardLeft: 3, cardPerCount: 1, cardExpireTime: '2026-12-31 23:59:59' })).toEqual([
      '剩余：3 次',
      '有效期至：2026-12-31',
    ]);
    expect(balanceLines({ bigType: 1, cardLeft: 0, cardPerCount: 0, cardExpireTime: '2027-01-31 23:59:59' })).toEqual([
      '有效期至：2027-01-31',
    ]);
    expect(balanceLines({ bigType: 1, cardLeft: 0, cardPerCount: 0, cardExpireTime: null })).toEqual([
      '有效期至：长期有效',
    ]);
  });
});
