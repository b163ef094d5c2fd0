import { HEALTH_DEFAULT_QUESTIONS, type HealthAnswer } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';

/** 健康声明's tables: the store's questionnaire versions and the members' declarations. */

export interface Questionnaire {
  /** null: the store never saved one nor had a declaration: the defaults, version 1, not yet written. */
  id: number | null;
  version: number;
  questions: string[];
}

/** The questionnaire in force: the store's highest version, or the defaults as version 1. */
export async function currentQuestionnaire(ex: Executor, storeId: number): Promise<Questionnaire> {
  const row = await ex
    .selectFrom('healthQuestionnaire')
    .select(['id', 'version', 'questions'])
    .where('storeId', '=', storeId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row
    ? { id: Number(row.id), version: Number(row.version), questions: JSON.parse(row.questions) as string[] }
    : { id: null, version: 1, questions: [...HEALTH_DEFAULT_QUESTIONS] };
}

/** Writes a version of the questions; null when that version exists already (another save won). */
export async function insertQuestionnaire(
  ex: Executor,
  row: { storeId: number; version: number; questions: string[]; createdAt: string; createdBy: number | null },
): Promise<number | null> {
  const made = await ex
    .insertInto('healthQuestionnaire')
    .values({ ...row, questions: JSON.stringify(row.questions) })
    .onConflict((oc) => oc.columns(['storeId', 'version']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return made ? Number(made.id) : null;
}

export interface DeclarationRow {
  version: number;
  answers: HealthAnswer[];
  note: string | null;
  shareDetails: boolean;
  flagged: boolean;
  answeredAt: string;
}

/** The member's latest declaration, with the version it answered. */
export async function latestDeclaration(
  ex: Executor,
  storeId: number,
  memberId: number,
): Promise<DeclarationRow | undefined> {
  const r = await ex
    .selectFrom('healthDeclaration as d')
    .innerJoin('healthQuestionnaire as q', 'q.id', 'd.questionnaireId')
    .select(['q.version', 'd.answers', 'd.note', 'd.shareDetails', 'd.flagged', 'd.answeredAt'])
    .where('d.storeId', '=', storeId)
    .where('d.memberId', '=', memberId)
    .orderBy('d.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (
    r && {
      version: Number(r.version),
      answers: JSON.parse(r.answers) as HealthAnswer[],
      note: r.note,
      shareDetails: Number(r.shareDetails) === 1,
      flagged: Number(r.flagged) === 1,
      answeredAt: r.answeredAt,
    }
  );
}

export async function insertDeclaration(
  ex: Executor,
  row: {
    storeId: number;
    memberId: number;
    questionnaireId: number;
    answers: HealthAnswer[];
    note: string | null;
    shareDetails: boolean;
    answeredAt: string;
  },
): Promise<boolean> {
  const flagged = row.answers.some((a) => a.yes);
  await ex
    .insertInto('healthDeclaration')
    .values({
      ...row,
      answers: JSON.stringify(row.answers),
      shareDetails: row.shareDetails ? 1 : 0,
      flagged: flagged ? 1 : 0,
    })
    .execute();
  return flagged;
}

/** Every declaration of the member gone (the consent withdrawn, the account erased). */
export async function deleteDeclarations(ex: Executor, storeId: number, memberId: number): Promise<void> {
  await ex.deleteFrom('healthDeclaration').where('storeId', '=', storeId).where('memberId', '=', memberId).execute();
}

/** Members booked (or held for sign-in) in the session whose latest declaration has a yes. */
export async function flaggedInSession(ex: Executor, storeId: number, sessionId: number): Promise<number[]> {
  const { rows } = await sql<{ memberId: number }>`select d.member_id as "memberId" from health_declaration d
    where d.store_id = ${storeId} and d.flagged = 1
      and d.id = (select max(x.id) from health_declaration x where x.store_id = d.store_id and x.member_id = d.member_id)
      and d.member_id in (
        select member_id from reservation where store_id = ${storeId} and timetable_id = ${sessionId}
        union select member_id from pending where store_id = ${storeId} and timetable_id = ${sessionId})
    order by d.member_id`.execute(ex);
  return rows.map((r) => Number(r.memberId));
}

/** The teacher teaches (or taught) a session the member booked or was held for. */
export async function teachesMember(ex: Executor, storeId: number, teacherId: number, memberId: number) {
  const { rows } = await sql<{ n: number }>`select count(*) as n from timetable t
    where t.store_id = ${storeId} and t.teacher_id = ${teacherId} and (
      exists (select 1 from reservation r where r.timetable_id = t.id and r.member_id = ${memberId})
      or exists (select 1 from pending p where p.timetable_id = t.id and p.member_id = ${memberId}))`.execute(ex);
  return Number(rows[0]?.n ?? 0) > 0;
}
