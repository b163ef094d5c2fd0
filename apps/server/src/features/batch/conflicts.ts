import { Msg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { lockTeachers } from '../../db/locks.ts';
import { conflict } from '../../lib/errors.ts';
import { findTeacherConflicts } from '../timetable/public.ts';
import { groupBy } from './group.ts';
import { shortTime } from './plan.ts';

export interface PlannedSlot {
  teacherId: number;
  startTime: string;
  endTime: string;
}

/** How many clashing times the message names; `data.dates` lists them all. */
const NAMED = 5;

/**
 * Refuses (409 该老师在 ... 已有课程，时间冲突) a batch whose new sessions overlap a live session of
 * their teacher, or each other. One engine query per teacher over the batch's whole span, then
 * an interval sweep; the answer's `data.dates` lists every clashing new session (`YYYY-MM-DD HH:mm`).
 */
export async function assertNoTeacherClash(tx: Tx, storeId: number, slots: readonly PlannedSlot[]): Promise<void> {
  const byTeacher = groupBy(slots, (s) => s.teacherId);
  // The teachers' locks first (the engine's lock order), so a concurrent session cannot pass too.
  await lockTeachers(tx, byTeacher.keys());
  const clashing = new Set<string>();
  for (const [teacherId, planned] of byTeacher) {
    let from = planned[0].startTime;
    let to = planned[0].endTime;
    for (const p of planned) {
      if (p.startTime < from) from = p.startTime;
      if (p.endTime > to) to = p.endTime;
    }
    const existing = await findTeacherConflicts(tx, storeId, teacherId, from, to);
    const all = [
      ...planned.map((p) => ({ ...p, planned: true })),
      ...existing.map((e) => ({ startTime: e.startTime, endTime: e.endTime, planned: false })),
    ].sort((a, b) => a.startTime.localeCompare(b.startTime) || a.endTime.localeCompare(b.endTime));
    // Sweep in start order: an interval clashes with the one that reaches furthest before it.
    let reach: (typeof all)[number] | null = null;
    for (const cur of all) {
      if (reach && cur.startTime < reach.endTime) {
        if (cur.planned) clashing.add(shortTime(cur.startTime));
        if (reach.planned) clashing.add(shortTime(reach.startTime));
      }
      if (!reach || cur.endTime > reach.endTime) reach = cur;
    }
  }
  if (!clashing.size) return;
  const dates = [...clashing].sort();
  const named = dates.slice(0, NAMED).join('、') + (dates.length > NAMED ? ` 等${dates.length}处` : '');
  throw conflict(Msg.teacherConflict(named), { dates });
}
