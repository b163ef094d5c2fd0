import {
  AUDIT_KINDS,
  StaffMsg,
  type AuditKind,
  type AuditRow,
  type ParsedReqOf,
  type queryAuditLog,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import type { WithSession } from '../../lib/wire-names.ts';
import { findMember, membersMatching, namesOf } from '../reference/public.ts';
import { findStaffOfStore } from '../staff/public.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { addDays, daysBetween, epochOfLocal, localDateTime } from '../../lib/time.ts';
import {
  auditPage,
  cardsWithHolder,
  entryTargets,
  findSessionOfStore,
  sessionsWithCourse,
  staffNames,
} from './repository.ts';
import { UNDO_WINDOW_MS } from './undo.ts';

/** The log's filters, the wire's `tid` read as the session. */
type AuditQuery = WithSession<ParsedReqOf<typeof queryAuditLog>>;

/** At most this many members a keyword filter names. */
const KEYWORD_MEMBERS = 500;

/** Filters that name something must name a thing of this store. */
async function requireFilterRefs(db: Executor, storeId: number, input: AuditQuery) {
  if (input.staffId && !(await findStaffOfStore(db, storeId, input.staffId))) throw notFound('员工');
  if (input.memberId && !(await findMember(db, storeId, input.memberId))) throw notFound('会员');
  if (input.sessionId && !(await findSessionOfStore(db, storeId, input.sessionId))) throw notFound('课程');
}

/** The entries of a store in a date range, newest first, with their filters; 20 a page. */
export async function queryAudit(ctx: CallCtx, input: AuditQuery) {
  const days = daysBetween(input.fromDate, input.toDate);
  if (days < 0) throw badRequest(StaffMsg.auditRange);
  if (days > 365) throw badRequest(StaffMsg.auditRangeTooLong);
  const storeId = ctx.store.id;
  await requireFilterRefs(ctx.db, storeId, input);
  const tz = ctx.store.timezone;
  const from = epochOfLocal(tz, `${input.fromDate} 00:00:00`);
  const to = epochOfLocal(tz, `${addDays(input.toDate, 1)} 00:00:00`);

  let memberIds: number[] | undefined = input.memberId ? [input.memberId] : undefined;
  if (input.memberKeyword) {
    const ids = (await membersMatching(ctx.db, storeId, input.memberKeyword, KEYWORD_MEMBERS)).map((m) => m.id);
    memberIds = memberIds ? memberIds.filter((id) => ids.includes(id)) : ids;
  }
  if (memberIds && memberIds.length === 0) return { list: [], total: 0 };

  const { rows, total } = await auditPage(
    ctx.db,
    { storeId, from, to, staffId: input.staffId, kind: input.kind, sessionId: input.sessionId, memberIds },
    { page: input.page, pageSize: input.pageSize },
  );
  const words = await targetWords(
    ctx.db,
    storeId,
    rows.map((r) => r.id),
  );
  const now = Date.now();
  const list: AuditRow[] = rows.map((r) => ({
    id: r.id,
    time: localDateTime(tz, Number(r.at)),
    staff: r.actorKind === 'member' ? `${r.actorName}（会员本人）` : r.actorName,
    actorKind: r.actorKind,
    kind: (r.kind in AUDIT_KINDS ? r.kind : 'system') as AuditKind,
    target: [r.target, words.get(r.id) ?? ''].filter(Boolean).join('；'),
    summary: r.summary,
    before: r.beforeJson ? (JSON.parse(r.beforeJson) as Record<string, unknown>) : null,
    after: r.afterJson ? (JSON.parse(r.afterJson) as Record<string, unknown>) : null,
    undoable: r.undoJson !== null && r.undoneAt === null && now - Number(r.at) < UNDO_WINDOW_MS,
    undoneTime: r.undoneAt === null ? null : localDateTime(tz, Number(r.undoneAt)),
  }));
  return { list, total };
}

/** What each entry was about, in words: members, sessions (course and start), cards, staff. */
async function targetWords(db: Executor, storeId: number, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (!ids.length) return out;
  const targets = await entryTargets(db, storeId, ids);
  const of = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.refId))];
  const [members, sessions, cards, staff] = await Promise.all([
    namesOf(db, 'member', of('member')),
    sessionsWithCourse(db, of('session')),
    cardsWithHolder(db, of('card')),
    staffNames(db, of('staff')),
  ]);
  const name = new Map<string, string>();
  for (const m of members) name.set(`member:${m.id}`, `会员 ${m.name}`);
  for (const s of sessions) name.set(`session:${s.id}`, `${s.courseName} ${s.startTime.slice(5, 16)}`);
  for (const c of cards) name.set(`card:${c.id}`, `${c.memberName}的${c.name}`);
  for (const s of staff) name.set(`staff:${s.id}`, `员工 ${s.name}`);
  const per = new Map<number, string[]>();
  for (const t of targets) {
    const w = name.get(`${t.type}:${t.refId}`);
    if (!w) continue;
    const list = per.get(t.auditId) ?? [];
    if (list.length < 4 && !list.includes(w)) list.push(w);
    per.set(t.auditId, list);
  }
  const counts = new Map<number, number>();
  for (const t of targets) counts.set(t.auditId, (counts.get(t.auditId) ?? 0) + 1);
  for (const [id, list] of per) {
    const more = (counts.get(id) ?? 0) - list.length;
    out.set(id, more > 0 ? `${list.join('、')} 等${counts.get(id)}项` : list.join('、'));
  }
  return out;
}
