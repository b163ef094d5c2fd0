import type { CommissionItem, CommissionRow } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { addDays } from '../../lib/time.ts';
import { paymentRowsIn } from '../reports/public.ts';
import { addMonths } from './month.ts';
import { conversionsIn, monthBounds, ratesOfStaff, salesOfCards, staffNames } from './repository.ts';
import { commissionOf } from './rules.ts';

interface Sold {
  kind: string;
  memberCardId: number;
  ledgerId: number | null;
  payOrderId: number | null;
  sellerId: number | null;
  staffId: number | null;
  orderStaffId: number | null;
  orderSellerId: number | null;
}

/**
 * Who sold a sale or top-up: the 销售员 named for it (at the desk, or by a manager since), else
 * (older records) the staff member who took it at the desk; for an online order, its seller (the
 * desk's 扫码收款 names one, a member's own order has the seller of the link they came through,
 * 推广链接), else the staff member who took it.
 */
export const sellerOfSale = (p: Pick<Sold, 'sellerId' | 'staffId' | 'orderStaffId' | 'orderSellerId'>) =>
  p.sellerId ?? p.staffId ?? p.orderSellerId ?? p.orderStaffId ?? null;

/**
 * A refund counts against whoever sold what it pays back: a top-up refund against the top-up's
 * seller, an online order's refund against the order's, a whole card's refund against the card's
 * sale. A member's own online order has a seller only through a seller's link (推广链接), and so has its refund.
 */
function sellerOfRefund(
  refund: { memberCardId: number; refundOf: number | null; payOrderId: number | null },
  originals: readonly Sold[],
): number | null {
  const ofCard = originals.filter((o) => o.memberCardId === refund.memberCardId);
  const original =
    refund.refundOf !== null
      ? ofCard.find((o) => o.ledgerId === refund.refundOf)
      : refund.payOrderId !== null
        ? ofCard.find((o) => o.payOrderId === refund.payOrderId)
        : ofCard.find((o) => o.kind === 'sale');
  return original ? sellerOfSale(original) : null;
}

/**
 * A month's sales commission as it stands now: per seller, the money received for the cards and
 * top-ups they sold in the month (card_payment, read through the reports' one query of money
 * received), less what was paid back in the month for what they sold (whenever they sold it), times
 * their rate; each payment listed. Plus, per lead (潜客) converted in the month, the amount their
 * setting pays a conversion, credited once to whoever owned the lead when it converted (a pool lead:
 * nobody). Sellers with no sales, refunds or conversions in the month are left out.
 */
export async function computeCommission(ex: Executor, storeId: number, month: string): Promise<CommissionRow[]> {
  const from = `${month}-01`;
  const to = addDays(`${addMonths(month, 1)}-01`, -1);
  const payments = await paymentRowsIn(ex, { storeId, from, to });
  const refunds = payments.filter((p) => p.kind === 'refund');
  const originals = await salesOfCards(ex, storeId, [...new Set(refunds.map((r) => r.memberCardId))]);
  const rows = new Map<number, CommissionRow>();
  const rowOf = (seller: number) => {
    let row = rows.get(seller);
    if (!row) {
      row = {
        staffId: seller,
        name: '',
        sales: 0,
        refunds: 0,
        rate: 0,
        conversions: [],
        perConversion: 0,
        conversionPay: 0,
        commission: 0,
        items: [],
      };
      rows.set(seller, row);
    }
    return row;
  };
  for (const p of payments) {
    // Card sales, top-ups and their refunds only (a transfer's fee is not a sale).
    if (p.kind !== 'sale' && p.kind !== 'topup' && p.kind !== 'refund') continue;
    const seller = p.kind === 'refund' ? sellerOfRefund(p, originals) : sellerOfSale(p);
    if (seller === null) continue;
    const row = rowOf(seller);
    if (p.kind === 'refund') row.refunds += p.amount;
    else row.sales += p.amount;
    const item: CommissionItem = {
      id: p.id,
      time: p.createdAt,
      kind: p.kind as CommissionItem['kind'],
      memberId: p.memberId,
      memberName: p.memberName,
      cardName: p.cardName,
      amount: p.amount,
      method: p.method,
      channel: p.channel,
    };
    row.items.push(item);
  }
  const [lo, hi] = monthBounds(month);
  for (const c of await conversionsIn(ex, storeId, lo, hi)) {
    if (c.ownerId === null) continue;
    rowOf(c.ownerId).conversions.push({
      leadId: c.id,
      name: c.name,
      convertedAt: c.convertedAt ?? '',
      cardName: c.cardName ?? '',
    });
  }
  if (!rows.size) return [];
  const rates = new Map((await ratesOfStaff(ex, storeId)).map((r) => [r.staffId, r]));
  const names = await staffNames(ex, [...rows.keys()]);
  const out = [...rows.values()].sort((a, b) => a.staffId - b.staffId);
  for (const row of out) {
    const rate = rates.get(row.staffId);
    const rateBp = rate?.rateBp ?? 0;
    row.name = names.get(row.staffId) ?? '';
    row.rate = rateBp / 100;
    row.perConversion = rate?.perConversion ?? 0;
    row.conversionPay = row.conversions.length * row.perConversion;
    row.commission = commissionOf(row.sales - row.refunds, rateBp) + row.conversionPay;
  }
  return out;
}
