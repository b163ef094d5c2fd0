import { TeacherPayMsg } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { conflict } from '../../lib/errors.ts';
import { closedAmong } from './closing-repository.ts';
import { monthOf } from './month.ts';

/** What a session's pay depends on: who teaches it and when. */
export interface SessionPayFacts {
  teacherId: number;
  /** Store-local `YYYY-MM-DD HH:mm:ss`. */
  startTime: string;
}

/**
 * Refuses (409) to give a session another teacher or time when it is in a month whose teacher pay
 * is closed, or would move into one: a closed month's statement is what was paid. A listener of
 * timetable's `sessionMoving`, announced by the one place sessions are edited (`updateSession`) inside its
 * transaction: its refusal rolls the edit back. Capacity,
 * venue and material changes pass.
 */
export async function refuseClosedSessionChange(
  tx: Executor,
  { storeId, before, after }: { storeId: number; before: SessionPayFacts; after: SessionPayFacts },
): Promise<void> {
  if (before.teacherId === after.teacherId && before.startTime === after.startTime) return;
  const months = [...new Set([monthOf(before.startTime), monthOf(after.startTime)])];
  const closed = await closedAmong(tx, storeId, 'teacher', months);
  if (closed.length) throw conflict(TeacherPayMsg.sessionInClosedMonth(closed[0]));
}
