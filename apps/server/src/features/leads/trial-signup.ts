import { memberTrialSignup, type ParsedReqOf } from '@studio/contract';
import type { Db } from '../../db/index.ts';
import { systemScope } from '../../lib/audit.ts';
import type { CallCtx, StoreScope } from '../../lib/context.ts';
import { localDateTime } from '../../lib/time.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { publicBaseOf } from '../messaging/public.ts';
import { admitPublicRequest, referralCodeOf, referrerIdOf, trialDoor } from '../member-channel/public.ts';
import { findMember, memberIdByMobile } from '../reference/public.ts';
import { offeredCourseNames } from './repository.ts';
import { recordLeadConsents } from './consent.ts';
import { insertOrMergeLead } from './service.ts';

/**
 * 体验课报名 (issue 44, items 1 and 5): the store's public sign-up page makes (or merges into) a
 * lead, 线上报名, or 转介绍 naming the member whose referral link it came by. It is behind the
 * members' door (`trialDoor`: the address's and the store's free allowances, a solved challenge past
 * them, the typed mobile's own limits) and answers the same whether the mobile is new, a lead's or a
 * member's.
 */

/** The page's store name and the courses to choose from. */
export async function trialForm(db: Db, store: StoreScope) {
  return { storeName: store.name, interests: await offeredCourseNames(db, store.id) };
}

/**
 * The referrer a sign-up credits: the member the code names, unless the friend is the member
 * themself (their own mobile) or already a member of the store. A mobile already a lead merges
 * into that lead, which keeps its source: an already referred or known person is no referral.
 */
async function referrerFor(db: Db, storeId: number, code: string, mobile: string): Promise<number | null> {
  const id = await referrerIdOf(db, storeId, code);
  const referrer = id === undefined ? undefined : await findMember(db, storeId, id);
  if (!referrer || referrer.mobile === mobile) return null;
  if ((await memberIdByMobile(db, storeId, mobile)) !== undefined) return null;
  return referrer.id;
}

export async function signUpForTrial(
  ctx: Pick<CallCtx, 'db' | 'dialect' | 'req'>,
  store: StoreScope,
  input: ParsedReqOf<typeof memberTrialSignup>,
): Promise<null> {
  await admitPublicRequest(ctx.db, trialDoor, {
    storeId: store.id,
    mobile: input.mobile,
    ip: ctx.req.ip,
    altcha: input.altcha,
  });
  const referrerMemberId = input.ref ? await referrerFor(ctx.db, store.id, input.ref, input.mobile) : null;
  const now = localDateTime(store.timezone);
  await inWriteTx(
    ctx.db,
    ctx.dialect,
    async (tx) => {
      const { id } = await insertOrMergeLead(
        tx,
        store.id,
        {
          name: input.name,
          mobile: input.mobile,
          source: referrerMemberId === null ? '线上报名' : '转介绍',
          interests: input.interests,
          notes: `在线报名体验课${input.preferredTimes ? `，方便的时间：${input.preferredTimes}` : ''}`,
          preferredTimes: input.preferredTimes,
          ownerId: null,
          referrerMemberId,
        },
        { by: null, now },
      );
      // 同意接收营销短信 ticked: the lead's consent, 线上报名 (unticked records nothing: not a withdrawal).
      if (input.marketing) await recordLeadConsents(tx, store.id, [id], { granted: true, way: 'online', at: now });
    },
    systemScope('体验课报名', memberTrialSignup.path, 'lead', store.id),
  );
  return null;
}

/** A member's referral link: the store's 体验课报名 page with their code. */
export async function myReferral(ctx: Pick<CallCtx, 'db' | 'store' | 'req'>, memberId: number) {
  const code = await referralCodeOf(ctx.db, ctx.store.id, memberId);
  const { base } = await publicBaseOf(ctx);
  return { code, url: `${base}/m/?store=${ctx.store.id}&trial=1&ref=${code}` };
}
