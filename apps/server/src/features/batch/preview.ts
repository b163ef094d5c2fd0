import { BOOKED_TYPES, OperateType, PREVIEW_SESSIONS_MAX, type BulkPreview } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { audit, recordForUndo, scopeOf } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { previewSessions, sessionWatermark, trailSince, trailWatermark, type ListedSessions } from './repository.ts';

/** Thrown inside a dry run's transaction so that it rolls back; carries the preview out. */
class DryRunDone extends Error {
  constructor(
    readonly count: number,
    readonly preview: BulkPreview,
  ) {
    super('dry run');
  }
}

const CANCELLED: number[] = [OperateType.USER_CANCELLED, OperateType.ADMIN_CANCELLED];

/** What the run wrote since the watermark, in the store's words: bookings, cancels, money. */
async function effects(tx: Tx, storeId: number, mark: { history: number; ledger: number }) {
  const { history: trail, money } = await trailSince(tx, storeId, mark);
  const sum = (kind: string) => {
    const per = new Map<number, number>();
    for (const m of money) {
      if (m.kind === kind) per.set(m.bigType, (per.get(m.bigType) ?? 0) + Math.abs(Number(m.amount)));
    }
    return [...per].sort(([a], [b]) => a - b).map(([bigType, amount]) => ({ bigType, amount }));
  };
  const touched = trail.filter((h) => BOOKED_TYPES.includes(h.operateType) || CANCELLED.includes(h.operateType));
  return {
    booked: trail.filter((h) => BOOKED_TYPES.includes(h.operateType)).length,
    cancelled: trail.filter((h) => CANCELLED.includes(h.operateType)).length,
    members: new Set(touched.map((h) => h.memberId)).size,
    charged: sum('deduct'),
    refunded: sum('refund'),
    refundedMembers: new Set(money.filter((m) => m.kind === 'refund').map((m) => m.memberId)).size,
    /** The sessions it booked into, in the order it booked (a drop-in: by time). */
    bookedSessions: [...new Set(trail.filter((h) => BOOKED_TYPES.includes(h.operateType)).map((h) => h.timetableId))],
  };
}

/**
 * The sessions a preview lists (date, times, course, teacher, venue; at most PREVIEW_SESSIONS_MAX,
 * the rest counted): those the run made (above the session watermark), else those it deleted
 * (`listed`, by time), else those it booked into.
 */
async function listSessions(
  tx: Tx,
  storeId: number,
  sessionMark: number,
  listed: readonly number[] | undefined,
  booked: readonly number[],
) {
  const made = await previewSessions(tx, storeId, { afterId: sessionMark }, PREVIEW_SESSIONS_MAX);
  let found = made;
  if (!made.total) {
    const which: ListedSessions = { ids: listed?.length ? listed : booked };
    found = await previewSessions(tx, storeId, which, PREVIEW_SESSIONS_MAX);
  }
  return {
    sessions: found.rows.map((r) => ({
      date: r.startTime.slice(0, 10),
      startTime: r.startTime.slice(11, 16),
      endTime: r.endTime.slice(11, 16),
      courseName: r.courseName,
      teacherName: r.teacherName,
      areaName: r.areaName ?? null,
    })),
    moreSessions: Math.max(0, found.total - found.rows.length),
  };
}

/** The sessions an entry of a bulk change names for the 课程 filter (more are said in words only). */
const NAMED_SESSIONS = 200;

/** What a bulk change did, in words and targets, on its audit entry. */
function describeBulk(tx: Tx, undo: Record<string, unknown[]> | undefined) {
  const made = (undo?.createdSessions ?? []) as number[];
  const gone = (undo?.deletedSessions ?? []) as number[];
  const booked = (undo?.bookedReservations?.length ?? 0) + (undo?.bookedPendings?.length ?? 0);
  const cancelled = undo?.reservations?.length ?? 0;
  const words = [
    made.length ? `新增${made.length}节课` : '',
    gone.length ? `删除${gone.length}节课` : '',
    booked ? `预约${booked}人次` : '',
    cancelled ? `取消${cancelled}个预约并退回` : '',
  ].filter(Boolean);
  audit(tx, {
    kind: 'bulk',
    target: words.join('，') || '没有变动',
    targets: [...made, ...gone].slice(0, NAMED_SESSIONS).map((id) => ({ type: 'session' as const, id })),
  });
}

/**
 * Runs a bulk change (batch scheduling, weekly-template run, drop-in, copy, batch delete) in one
 * transaction. With `dryRun` the very same code runs, what it wrote is read back (rows above the
 * ids it started from: bookings made and cancelled, deductions and refunds per card kind, members,
 * the sessions made, or deleted as `listed` names them) and the transaction is rolled back: the
 * answer is the preview, and nothing is written. A change the act would refuse (409: a teacher or
 * room clash, a refused booking) is answered as a preview with the refusal and its dates instead
 * of an error.
 */
export async function bulkTx<R extends { count: number }>(
  ctx: CallCtx,
  dryRun: boolean | undefined,
  fn: (tx: Tx) => Promise<R & { listed?: readonly number[] }>,
): Promise<R | { count: number; preview: BulkPreview }> {
  if (!dryRun) {
    // The change records what its undo needs (recordForUndo in the writers), and the highest trail
    // ids it wrote: anything on its sessions or cards above them happened after it.
    const scope = scopeOf(ctx.db);
    if (scope) scope.recordUndo = true;
    return inOwnTx(ctx.db, async (tx) => {
      // `listed` is for the preview only.
      const { listed: _listed, ...result } = await fn(tx);
      if (scope) {
        // Only a change that did something can be undone.
        if (scope.note.undo) recordForUndo(tx, { marks: [await trailWatermark(tx)] });
        scope.recordUndo = false;
        describeBulk(tx, scope.note.undo as Record<string, unknown[]> | undefined);
      }
      return result as unknown as R;
    });
  }
  try {
    await ctx.db.transaction().execute(async (tx) => {
      // Rows above these ids are what the run being previewed writes.
      const mark = await trailWatermark(tx);
      const sessionMark = await sessionWatermark(tx);
      let result: R & { listed?: readonly number[] };
      try {
        result = await fn(tx);
      } catch (e) {
        if (!(e instanceof AppError) || e.status !== 409) throw e;
        const dates = (e.data as { dates?: unknown } | null)?.dates;
        throw new DryRunDone(0, {
          booked: 0,
          cancelled: 0,
          members: 0,
          charged: [],
          refunded: [],
          refundedMembers: 0,
          refusal: e.message,
          clashes: Array.isArray(dates) ? dates.map(String) : [],
          sessions: [],
          moreSessions: 0,
        });
      }
      const { bookedSessions, ...done } = await effects(tx, ctx.store.id, mark);
      const listed = await listSessions(tx, ctx.store.id, sessionMark, result.listed, bookedSessions);
      throw new DryRunDone(result.count, { ...done, refusal: null, clashes: [], ...listed });
    });
  } catch (e) {
    if (e instanceof DryRunDone) return { count: e.count, preview: e.preview };
    throw e;
  }
  throw new Error('unreachable: a dry run always rolls back');
}
