import {
  HEALTH_VALID_MONTHS,
  HealthMsg,
  type ParsedReqOf,
  type ResOf,
  type memberMyHealth,
  type memberSubmitHealth,
  type queryHealthSetting,
  type queryMemberHealth,
  type updateHealthSetting,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { databaseOf } from '../../db/dialect.ts';
import { audit } from '../../lib/audit.ts';
import { shortLived } from '../../lib/cache.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, forbidden } from '../../lib/errors.ts';
import { requireStoreById } from '../../lib/store-scope.ts';
import { addMonths, localDateTime, storeNow } from '../../lib/time.ts';
import { requireMember } from '../reference/public.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import { liveSession } from '../timetable/public.ts';
import {
  currentQuestionnaire,
  flaggedInSession,
  insertDeclaration,
  insertQuestionnaire,
  latestDeclaration,
  teachesMember,
  type DeclarationRow,
  type Questionnaire,
} from './health-repository.ts';
import { consentsOf, currentConsents } from './repository.ts';

/**
 * 健康声明 (issue 45, item 3). Rules, each here once:
 * - the member answers only with their 'health' consent in force (withdrawing it deletes the answers);
 * - a declaration is due when there is none from the last 12 months, or (the store's 改问题后须重新填写)
 *   none under the questions in force;
 * - with the store's 上课前须填写健康声明 on, a due member's own booking or queueing is refused
 *   (the `memberBooking` guard); the desk may still book for them;
 * - a yes marks the member (健康提示) for every staff role; the answers are shown only to the manager
 *   and the member's teachers, and only when the member allowed it (the desk never).
 */

const REQUIRED = 'health.required';
const REANSWER = 'health.reanswer';

const isOn = async (ex: Executor, storeId: number, key: string) => (await getSetting(ex, storeId, key)) === '1';

/**
 * Whether the store asks for a declaration before a member's booking, kept 5 s: every member's
 * booking asks it, and a booking's round trips are its rush's pace (booking-round-trips.test.ts).
 * Saved on this instance it is forgotten at once; on another it holds at most 5 s.
 */
const required = shortLived<boolean>({ ttlMs: 5000, max: 10_000 });

async function healthConsent(ex: Executor, storeId: number, memberId: number): Promise<boolean> {
  const c = currentConsents(await consentsOf(ex, storeId, memberId)).find((x) => x.kind === 'health');
  return c?.granted === true;
}

/** Whether the member must (re)answer: nothing from the last 12 months, or an old version when asked. */
function isDue(decl: DeclarationRow | undefined, q: Questionnaire, reanswer: boolean, today: string): boolean {
  if (!decl) return true;
  if (decl.answeredAt.slice(0, 10) <= addMonths(today, -HEALTH_VALID_MONTHS)) return true;
  return reanswer && decl.version < q.version;
}

async function dueOf(ex: Executor, storeId: number, memberId: number, today: string) {
  const [q, decl, reanswer] = await Promise.all([
    currentQuestionnaire(ex, storeId),
    latestDeclaration(ex, storeId, memberId),
    isOn(ex, storeId, REANSWER),
  ]);
  return { q, decl, due: isDue(decl, q, reanswer, today) };
}

export async function myHealth(ctx: CallCtx): Promise<ResOf<typeof memberMyHealth>> {
  const storeId = ctx.store.id;
  const { q, decl, due } = await dueOf(ctx.db, storeId, ctx.member.id, storeNow(ctx).slice(0, 10));
  return {
    required: await isOn(ctx.db, storeId, REQUIRED),
    questionnaire: { version: q.version, questions: q.questions },
    consent: await healthConsent(ctx.db, storeId, ctx.member.id),
    declaration: decl ?? null,
    due,
  };
}

/** The member's answers (in the call's transaction): consent first, to the questions in force. */
export async function submitHealth(ctx: CallCtx, input: ParsedReqOf<typeof memberSubmitHealth>) {
  const storeId = ctx.store.id;
  if (!(await healthConsent(ctx.db, storeId, ctx.member.id))) throw conflict(HealthMsg.consent);
  let q = await currentQuestionnaire(ctx.db, storeId);
  if (input.version !== q.version) throw conflict(HealthMsg.changed);
  if (input.answers.length !== q.questions.length) throw badRequest(HealthMsg.answers);
  const now = storeNow(ctx);
  if (q.id === null) {
    // The defaults answered first: written as version 1 (a concurrent first answer wrote them already).
    await insertQuestionnaire(ctx.db, { storeId, version: 1, questions: q.questions, createdAt: now, createdBy: null });
    q = await currentQuestionnaire(ctx.db, storeId);
    if (q.version !== input.version) throw conflict(HealthMsg.changed);
  }
  const flagged = await insertDeclaration(ctx.db, {
    storeId,
    memberId: ctx.member.id,
    questionnaireId: q.id!,
    answers: q.questions.map((question, i) => ({ question, yes: input.answers[i] })),
    note: input.note?.trim() || null,
    shareDetails: input.shareDetails,
    answeredAt: now,
  });
  // The log says that it was filled in, never what.
  audit(ctx.db, { kind: 'member', target: '填写健康声明', targets: [{ type: 'member', id: ctx.member.id }] });
  return { flagged };
}

export async function healthSetting(ctx: CallCtx): Promise<ResOf<typeof queryHealthSetting>> {
  const q = await currentQuestionnaire(ctx.db, ctx.store.id);
  return {
    version: q.version,
    questions: q.questions,
    required: await isOn(ctx.db, ctx.store.id, REQUIRED),
    reanswer: await isOn(ctx.db, ctx.store.id, REANSWER),
  };
}

/** The manager's save (in the call's transaction): changed questions are a new version. */
export async function saveHealthSetting(ctx: CallCtx, input: ParsedReqOf<typeof updateHealthSetting>) {
  const storeId = ctx.store.id;
  const q = await currentQuestionnaire(ctx.db, storeId);
  let version = q.version;
  if (JSON.stringify(q.questions) !== JSON.stringify(input.questions)) {
    version = q.version + 1;
    const made = await insertQuestionnaire(ctx.db, {
      storeId,
      version,
      questions: input.questions,
      createdAt: storeNow(ctx),
      createdBy: ctx.staff.id,
    });
    if (made === null) throw conflict(HealthMsg.changed);
  }
  await putSetting(ctx.db, storeId, REQUIRED, input.required ? '1' : '0');
  required.forget(databaseOf(ctx.db), storeId);
  await putSetting(ctx.db, storeId, REANSWER, input.reanswer ? '1' : '0');
  audit(ctx.db, {
    kind: 'settings',
    target: `健康声明设置（第${version}版问题，上课前${input.required ? '须' : '不须'}填写）`,
  });
  return { version };
}

/** The session's members marked 健康提示 (404 for a session not of the store). */
export async function healthFlags(ctx: CallCtx, sessionId: number) {
  await liveSession(ctx.db, ctx.store.id, sessionId);
  return flaggedInSession(ctx.db, ctx.store.id, sessionId);
}

/** A member's mark for the staff, with the answers for whom the member allowed. */
export async function memberHealth(ctx: CallCtx, memberId: number): Promise<ResOf<typeof queryMemberHealth>> {
  const storeId = ctx.store.id;
  await requireMember(ctx.db, storeId, memberId);
  const role = ctx.post.role;
  if (
    role === 'teacher' &&
    !(ctx.post.teacherId && (await teachesMember(ctx.db, storeId, ctx.post.teacherId, memberId)))
  )
    throw forbidden(HealthMsg.notTheirs);
  const { decl, due } = await dueOf(ctx.db, storeId, memberId, storeNow(ctx).slice(0, 10));
  const shared = decl?.shareDetails === true;
  const mayRead = shared && (role === 'manager' || role === 'teacher');
  return {
    flagged: decl?.flagged === true,
    answeredAt: decl?.answeredAt ?? null,
    due,
    shared,
    details: decl && mayRead ? { version: decl.version, answers: decl.answers, note: decl.note } : null,
  };
}

/**
 * The guard of a member's own booking: with 上课前须填写健康声明 on, a member whose declaration is
 * due is refused, pointing to the form.
 */
export async function refuseUndeclared(tx: Executor, p: { storeId: number; memberId: number }): Promise<void> {
  if (!(await required.get(databaseOf(tx), p.storeId, () => isOn(tx, p.storeId, REQUIRED)))) return;
  const store = await requireStoreById(tx, p.storeId);
  const today = localDateTime(store.timezone).slice(0, 10);
  if ((await dueOf(tx, p.storeId, p.memberId, today)).due) throw conflict(HealthMsg.required);
}
