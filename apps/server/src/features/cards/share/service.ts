import { CardMsg, CardShareMsg, type addCardShare, type ParsedReqOf } from '@studio/contract';
import type { Tx } from '../../../db/index.ts';
import { lockCards } from '../../../db/locks.ts';
import { inWriteTx } from '../../../lib/write-queue.ts';
import { audit } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import type { WithCard } from '../../../lib/wire-names.ts';
import { badRequest, conflict } from '../../../lib/errors.ts';
import { localDateTime } from '../../../lib/time.ts';
import { requireMember } from '../../reference/public.ts';
import { addLedgerNote } from '../member-card-service.ts';
import { requireMemberCard } from '../repository.ts';
import { deleteShare, insertShare } from './repository.ts';

/**
 * 多人共享 (issue 29, item 6): a card names up to its product's 共享人数 other members of the store,
 * who book on it as its holder does (the one card rule `booksOn`, features/cards/rules.ts); every
 * charge's ledger entry names who booked (`card_ledger.member_id`). The desk keeps the list for the
 * holder; each change is a ledger note and an audit entry. Under the card's row lock: two additions
 * at once never pass the product's limit.
 */

type ShareInput = WithCard<ParsedReqOf<typeof addCardShare>>;

export async function addShare(ctx: CallCtx, input: ShareInput): Promise<null> {
  const storeId = ctx.store.id;
  const card = await requireMemberCard(ctx.db, storeId, input.memberCardId);
  const member = await requireMember(ctx.db, storeId, input.mid);
  if (card.refundedAt) throw conflict(CardMsg.refunded);
  if (member.id === card.memberId) throw badRequest(CardShareMsg.holder);
  const now = localDateTime(ctx.store.timezone);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await lockCards(tx, [card.id]);
    const locked = await requireMemberCard(tx, storeId, card.id);
    // A transfer or a refund committed since the first read: the desk looks again.
    if (locked.memberId !== card.memberId || locked.refundedAt) throw conflict(CardMsg.changed);
    if (locked.shareMax <= 0) throw conflict(CardShareMsg.notShared);
    const listed = JSON.parse(locked.sharedWith) as number[];
    if (listed.includes(member.id)) throw conflict(CardShareMsg.already);
    if (listed.length >= locked.shareMax) throw conflict(CardShareMsg.full(locked.shareMax));
    if (
      !(await insertShare(tx, {
        storeId,
        memberCardId: card.id,
        memberId: member.id,
        operatorId: ctx.staff.id,
        createdAt: now,
      }))
    ) {
      throw conflict(CardShareMsg.already);
    }
    await note(ctx, tx, card, `共享给 ${member.name}（${member.mobile}）`, member.id, now);
  });
  return null;
}

export async function removeShare(ctx: CallCtx, input: ShareInput): Promise<null> {
  const storeId = ctx.store.id;
  const card = await requireMemberCard(ctx.db, storeId, input.memberCardId);
  const member = await requireMember(ctx.db, storeId, input.mid);
  const now = localDateTime(ctx.store.timezone);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await lockCards(tx, [card.id]);
    if (!(await deleteShare(tx, storeId, card.id, member.id))) throw conflict(CardShareMsg.notIn);
    await note(ctx, tx, card, `取消共享：${member.name}（${member.mobile}）`, member.id, now);
  });
  return null;
}

/** The change's ledger note and audit entry (the card, its holder and the member added or taken off). */
async function note(
  ctx: CallCtx,
  tx: Tx,
  card: { id: number; memberId: number; cardName: string },
  remark: string,
  memberId: number,
  now: string,
) {
  await addLedgerNote(tx, {
    storeId: ctx.store.id,
    memberCardId: card.id,
    kind: 'share',
    operatorId: ctx.staff.id,
    remark,
    now,
  });
  audit(tx, {
    kind: 'card',
    summary: remark,
    target: card.cardName,
    targets: [
      { type: 'card', id: card.id },
      { type: 'member', id: card.memberId },
      { type: 'member', id: memberId },
    ],
  });
}
