import {
  createMemberLoginCode,
  endMemberSessions,
  memberBook,
  memberCancelBooking,
  memberChallenge,
  memberCancelPending,
  memberCardsForSession,
  memberJoinWaitlist,
  memberLeaveWaitlist,
  memberLogin,
  memberLogout,
  memberMe,
  memberMyBookings,
  memberMyCards,
  memberPublicTimetable,
  memberSendCode,
  memberSendContractCode,
  memberSignIn,
  memberStore,
  memberTimetable,
  queryCheckinCode,
  queryMemberPage,
  updateCheckinMode,
  updateMemberPage,
} from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import { BASE_KEY, publicBaseOf } from '../messaging/public.ts';
import type { CallCtx } from '../../lib/context.ts';
import { defineFeature } from '../../lib/feature.ts';
import { withCard, withSession } from '../../lib/wire-names.ts';
import { requireStoreById } from '../../lib/store-scope.ts';
import { localDateTime } from '../../lib/time.ts';
import { bookingRules } from '../policy/public.ts';
import { requireMember } from '../reference/public.ts';
import { putSetting, storeLogoFileId } from '../store-admin/public.ts';
import { checkinCode, saveCheckinMode } from './checkin.ts';
import { signIn, sendLoginCode, textContractCode } from './login.ts';
import { endMemberSession, endSessionsOf, issueCode, memberCookieName, newChallenge } from './member-auth.ts';
import * as svc from './service.ts';

export { memberCookieName, resolveMember } from './member-auth.ts';
export { registerMemberPages } from './pages.ts';

/** The acting member of a `member` call (the route loop resolved their session and store). */
const scope = (ctx: CallCtx): svc.MemberScope => ({
  db: ctx.db,
  dialect: ctx.dialect,
  store: ctx.store,
  memberId: ctx.member.id,
  events: ctx.events,
});

const storeOr404 = (ctx: CallCtx, storeId: number) => requireStoreById(ctx.db, storeId);

/** The page's address for members: the store's public base address, else the one this request came to. */
async function memberPage(ctx: CallCtx) {
  const { publicBaseUrl, base } = await publicBaseOf(ctx);
  const url = `${base}/m/?store=${ctx.store.id}`;
  return { publicBaseUrl, base, url, trialUrl: `${url}&trial=1` };
}

export const memberChannelFeature = defineFeature((r) => {
  r.handle(memberStore, async ({ storeId }, ctx) => {
    const store = await storeOr404(ctx, storeId);
    const logo = await storeLogoFileId(ctx.db, store.id);
    return {
      storeId: store.id,
      storeName: store.name,
      timezone: store.timezone,
      logo: logo ? `/member/files/logo/${store.id}` : null,
      ...(await bookingRules(ctx.db, store.id)),
    };
  });

  r.handle(memberChallenge, async (_input, ctx) => newChallenge(ctx.db));

  // The public door: the same answer for every well-formed mobile; the text goes out after it.
  r.handle(memberSendContractCode, (input, ctx) => textContractCode(ctx, input));
  r.handle(memberSendCode, async ({ storeId, ...input }, ctx) => {
    await sendLoginCode(ctx, await storeOr404(ctx, storeId), input);
    return null;
  });
  r.handle(memberLogin, async ({ storeId, ...input }, ctx) => signIn(ctx, await storeOr404(ctx, storeId), input));

  r.handle(memberMe, async (_input, ctx) => ({
    member: ctx.member,
    store: { id: ctx.store.id, name: ctx.store.name },
  }));

  r.handle(memberLogout, async (_input, ctx) => {
    const name = memberCookieName(ctx.config.cookieSecure);
    await endMemberSession(ctx.db, ctx.req.cookies[name]);
    ctx.reply.clearCookie(name, { path: '/' });
    return null;
  });

  r.handle(memberTimetable, async (input, ctx) => svc.timetable(ctx.db, ctx.store, input, ctx.member.id));
  r.handle(memberPublicTimetable, async ({ storeId, ...range }, ctx) =>
    svc.timetable(ctx.db, await storeOr404(ctx, storeId), range, null),
  );
  r.handle(memberCardsForSession, async ({ tid }, ctx) => svc.cardsForSession(scope(ctx), tid));
  r.handle(memberBook, async (input, ctx) => svc.book(scope(ctx), withCard(withSession(input))));
  r.handle(memberCancelBooking, async ({ id }, ctx) => svc.cancelBooking(scope(ctx), id));
  r.handle(memberCancelPending, async ({ pendingId }, ctx) => svc.cancelOwnPending(scope(ctx), pendingId));
  r.handle(memberJoinWaitlist, async (input, ctx) => svc.joinQueue(scope(ctx), withCard(withSession(input))));
  r.handle(memberLeaveWaitlist, async ({ id }, ctx) => svc.leaveQueue(scope(ctx), id));
  r.handle(memberMyBookings, async ({ state, page }, ctx) => svc.myBookings(scope(ctx), state, page));
  r.handle(memberMyCards, async (_input, ctx) => svc.myCards(scope(ctx)));
  r.handle(memberSignIn, async (input, ctx) => svc.selfCheckIn(scope(ctx), withSession(input)));

  // ---- the desk's side
  r.handle(createMemberLoginCode, async ({ memberId }, ctx) => {
    await requireMember(ctx.db, ctx.store.id, memberId);
    audit(ctx.db, { kind: 'member', targets: [{ type: 'member', id: memberId }] });
    // The desk's code: not limited by, and not counted against, what the public door limits.
    const { code, expiresAt } = await issueCode(ctx.db, { storeId: ctx.store.id, memberId }, 'desk');
    return { code, expireTime: localDateTime(ctx.store.timezone, expiresAt) };
  });
  r.handle(endMemberSessions, async ({ memberId }, ctx) => {
    await requireMember(ctx.db, ctx.store.id, memberId);
    audit(ctx.db, { kind: 'member', targets: [{ type: 'member', id: memberId }] });
    return { ended: await endSessionsOf(ctx.db, memberId) };
  });
  r.handle(queryCheckinCode, async ({ reset }, ctx) => {
    const c = await checkinCode(ctx.db, ctx.store, reset === true);
    const { url } = await memberPage(ctx);
    return { ...c, url: `${url}&checkin=${encodeURIComponent(c.token)}` };
  });
  r.handle(
    updateCheckinMode,
    async ({ checkinMode }, ctx) => {
      await saveCheckinMode(ctx.db, ctx.store.id, checkinMode);
      return null;
    },
    { tx: true },
  );
  r.handle(queryMemberPage, async (_input, ctx) => {
    const { publicBaseUrl, url, trialUrl } = await memberPage(ctx);
    return { publicBaseUrl, url, trialUrl };
  });
  r.handle(
    updateMemberPage,
    async ({ publicBaseUrl }, ctx) => {
      await putSetting(ctx.db, ctx.store.id, BASE_KEY, publicBaseUrl.replace(/\/+$/, ''));
      audit(ctx.db, { kind: 'settings', target: '会员端地址', after: { 会员端地址: publicBaseUrl } });
      const { url, trialUrl } = await memberPage(ctx);
      return { publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''), url, trialUrl };
    },
    { tx: true },
  );
});
