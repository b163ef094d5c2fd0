import type { JobPhase } from '@studio/contract';
import type { Dialect, Executor } from '../../db/index.ts';
import { rootOf } from '../../lib/audit.ts';
import { deleteOldProgress, progressRow, putProgress } from './repository.ts';

/**
 * Progress of an import or export (导入 and 导出全部数据), as a real bar: the rows done of the total.
 *
 * Design, and why. The import is one database transaction, so nothing it does is visible to another
 * connection until it commits; and on SQLite nothing else can write while it holds the write lock.
 * So progress is not business data in the database: the instance doing the work keeps it in memory
 * under the id the browser gave (`progressId`), updating it as rows are checked and written (the
 * writes go in chunks, each awaited, so a poll is answered between them with the rows written so
 * far). SQLite runs as one instance, so its memory is the answer. PostgreSQL may run several
 * instances behind one address, so a poll may reach another one: there the worker also writes its
 * progress to `job_progress` on another pooled connection (autocommit, outside the import's
 * transaction, at each report: a phase, a chunk of 1,000 rows written or a page of 2,000 exported,
 * so a 20,000-row import writes about 45 small rows), and an instance that does not hold the job in
 * memory reads that row. Before the server has the file (the browser is still uploading it)
 * a poll answers `waiting`; the browser shows the upload's own bytes sent then.
 */

export interface Progress {
  phase: JobPhase;
  done: number;
  total: number;
}

/** Progress kept after the work ended (the browser's last poll reads the final figures). */
const KEEP_MS = 10 * 60 * 1000;

const board = new Map<string, Progress & { at: number }>();
const keyOf = (storeId: number, id: string) => `${storeId}:${id}`;

/** Forgets what ended long ago (memory and, on PostgreSQL, the shared rows). */
function sweep(now: number) {
  for (const [k, v] of board) if (now - v.at > KEEP_MS && (v.phase === 'done' || v.phase === 'failed')) board.delete(k);
}

/** A job's progress reporter: `set` as it goes (in memory; on PostgreSQL in the shared row too). */
export class ProgressReporter {
  private readonly key: string;
  private started = false;
  private readonly db: Executor;

  constructor(
    db: Executor,
    private readonly dialect: Dialect,
    private readonly storeId: number,
    id: string | undefined,
  ) {
    // Writes go to the root handle: bookkeeping, outside any call's transaction (another connection).
    this.db = rootOf(db);
    this.key = id ? keyOf(storeId, id) : '';
  }

  async set(phase: JobPhase, done: number, total: number): Promise<void> {
    if (!this.key) return;
    const now = Date.now();
    board.set(this.key, { phase, done, total, at: now });
    if (this.dialect !== 'postgres') return;
    if (!this.started) await deleteOldProgress(this.db, now - KEEP_MS);
    this.started = true;
    await putProgress(this.db, { key: this.key, storeId: this.storeId, phase, done, total, updatedAt: now });
  }

  /** Marks the job failed (its figures as they stood), never throwing over the job's own error. */
  async fail(): Promise<void> {
    const had = this.key ? board.get(this.key) : undefined;
    await this.set('failed', had?.done ?? 0, had?.total ?? 0).catch(() => undefined);
  }
}

/** How far the job `id` of the store has got: this instance's memory, else (PostgreSQL) the shared row. */
export async function progressOf(db: Executor, dialect: Dialect, storeId: number, id: string): Promise<Progress> {
  sweep(Date.now());
  const mine = board.get(keyOf(storeId, id));
  if (mine) return { phase: mine.phase, done: mine.done, total: mine.total };
  if (dialect === 'postgres') {
    const row = await progressRow(db, keyOf(storeId, id), storeId);
    if (row) return { phase: row.phase as JobPhase, done: Number(row.done), total: Number(row.total) };
  }
  return { phase: 'waiting', done: 0, total: 0 };
}
