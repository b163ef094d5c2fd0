import { ReservationStatus } from '@studio/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Executor, Tx } from '../../db/index.ts';

/**
 * Who came (预约即扣费): a booking's one attendance fact is `reservation.attended_time`, whoever
 * recorded it (the desk, the teacher, the member's scan); a pending signed in (签到后扣费) is its
 * booking with status 2. The two conditions every reader shares (今日, the drawer, the reports, the
 * export, the no-show policy) live here as SQL, on a booking aliased `r` in a session aliased `t`
 * (the caller's aliases are given).
 */

type Alias = string;

/** The booking came: signed in (签到后扣费), or marked 到店 (预约即扣费). */
export function cameSql(r: Alias): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${r}.status`)} = ${ReservationStatus.SIGNED_IN} or (${sql.ref(`${r}.status`)} = ${ReservationStatus.BOOKED} and ${sql.ref(`${r}.attendedTime`)} is not null))`;
}

/**
 * The class's attendance was taken: one of its bookings is marked 到店. Only then does a booking
 * left unmarked count as not come (a studio that never takes attendance has no no-shows).
 */
export function attendanceTakenSql(t: Alias): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from reservation att where att.timetable_id = ${sql.ref(`${t}.id`)} and att.status = ${ReservationStatus.BOOKED} and att.attended_time is not null)`;
}

/**
 * A no-show of 预约即扣费: a booking still booked and not marked 到店 when its class had ended at
 * `now` (store-local), in a class whose attendance was taken. Marking it 到店 later clears it.
 */
export function missedSql(r: Alias, t: Alias, now: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${r}.status`)} = ${ReservationStatus.BOOKED} and ${sql.ref(`${r}.attendedTime`)} is null and ${sql.ref(`${t}.endTime`)} <= ${now} and ${attendanceTakenSql(t)})`;
}

/** A booking of the store with its session's times and teacher, for marking who came; undefined when none. */
export function bookingForAttendance(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .select([
      'r.id',
      'r.timetableId as sessionId',
      'r.memberId',
      'r.memberCardId',
      'r.studentCount',
      'r.status',
      'r.attendedTime',
      't.startTime',
      't.endTime',
    ])
    .where('r.id', '=', id)
    .where('r.storeId', '=', storeId)
    .executeTakeFirst();
}

/** The member's booking (booked, not signed in) of a session, or undefined. */
export function bookedOf(ex: Executor, sessionId: number, memberId: number) {
  return ex
    .selectFrom('reservation')
    .select(['id', 'timetableId as sessionId', 'memberId', 'memberCardId', 'studentCount'])
    .where('timetableId', '=', sessionId)
    .where('memberId', '=', memberId)
    .where('status', '=', ReservationStatus.BOOKED)
    .executeTakeFirst();
}

/**
 * Marks a booking 到店 at `at` (`null`: takes it back) in one guarded UPDATE: only a booking still
 * booked, and only when that changes it; false when nothing changed (already so, or cancelled).
 */
export async function setAttended(tx: Tx, id: number, at: string | null): Promise<boolean> {
  const res = await tx
    .updateTable('reservation')
    .set({ attendedTime: at })
    .where('id', '=', id)
    .where('status', '=', ReservationStatus.BOOKED)
    .where('attendedTime', at === null ? 'is not' : 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
