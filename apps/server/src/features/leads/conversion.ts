import type { Executor } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import type { PayloadOf } from '../../lib/events.ts';
import type { cardSold } from '../cards/public.ts';
import { findMember } from '../reference/public.ts';
import { rewardReferral } from './referral-reward.ts';
import { convertLead } from './repository.ts';

/**
 * A card sold (desk or online), not a 体验卡, to a member whose mobile is the store's lead's: the lead becomes
 * 已成交 once, credited to its owner and source as they are now, with the card; in the sale's
 * transaction, with its own words in the sale's audit entry. A second card (the same minute, another
 * instance) finds it converted: the guarded UPDATE changes nothing.
 */
export async function convertOnSale(tx: Executor, e: PayloadOf<typeof cardSold>): Promise<void> {
  // A 体验卡 is no conversion: its booking is the lead's paid trial (paid-trials.ts); the first other card converts.
  if (e.trial) return;
  const member = await findMember(tx, e.storeId, e.memberId);
  if (!member) return;
  const lead = await convertLead(tx, e.storeId, {
    mobile: member.mobile,
    memberId: e.memberId,
    memberCardId: e.memberCardId,
    now: e.now,
  });
  if (!lead) return;
  audit(tx, { targets: [{ type: 'lead', id: lead.id }] });
  // The friend's first card: their referrer's reward, when the store gives it then.
  await rewardReferral(tx, { storeId: e.storeId, memberId: e.memberId, now: e.now }, 'card');
}
