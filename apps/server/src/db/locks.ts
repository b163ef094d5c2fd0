import { sql } from 'kysely';
import { idChunks } from './chunks.ts';
import { onPostgres } from './dialect.ts';
import type { Tx } from './index.ts';

/**
 * Row locks in the engine's one lock order (docs/architecture.md): a teacher (when a session is
 * placed on their time), then its room (an area), then the machines it uses (equipment), then sessions in ascending id, then the bookings of those sessions
 * (reservations, pendings), then a member (before a 体验卡 is issued), then member cards in ascending id. Every write path takes its locks in
 * this order, so on PostgreSQL no two transactions can wait for each other in a circle. A path that
 * touches one row of a kind lets its guarded UPDATE take the lock; a path that touches several
 * takes them here first, sorted. SQLite has one writer at a time: nothing to lock there.
 */

async function lockRows(
  tx: Tx,
  table: 'store' | 'teacher' | 'area' | 'equipment' | 'timetable' | 'member' | 'member_card',
  ids: Iterable<number>,
): Promise<void> {
  if (!onPostgres(tx)) return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  for (const part of idChunks(sorted)) {
    // ORDER BY under FOR NO KEY UPDATE locks the rows in id order. NO KEY UPDATE is what an UPDATE
    // of a non-key column takes: it does not block the foreign-key checks of inserted bookings.
    await sql`select id from ${sql.table(table)} where id in (${sql.join(part)}) order by id for no key update`.execute(
      tx,
    );
  }
}

/** Locks teachers (ascending id) whose time new or moved sessions take: the clash check then holds. */
export const lockTeachers = (tx: Tx, ids: Iterable<number>) => lockRows(tx, 'teacher', ids);

/** Locks rooms (areas, ascending id) whose time new or moved sessions take, after their teachers. */
export const lockRooms = (tx: Tx, ids: Iterable<number>) => lockRows(tx, 'area', ids);

/** Locks machines (equipment, ascending id) a new or moved lesson uses, after its teacher and room. */
export const lockEquipment = (tx: Tx, ids: Iterable<number>) => lockRows(tx, 'equipment', ids);

/** Locks sessions in ascending id, before a write that touches several of them. */
export const lockSessions = (tx: Tx, ids: Iterable<number>) => lockRows(tx, 'timetable', ids);

/**
 * Locks a member's row before a 体验卡 is issued to them (the desk's 发卡, an online order's fulfilment):
 * the once-per-member check (`memberHadTrial`) read after it holds until the commit, so of two issuers
 * at once the second reads the first's card. After the online order's row (the fulfilment's guarded
 * UPDATE), before any card. FOR NO KEY UPDATE: inserting the member's card (its foreign key) still passes.
 */
export const lockMember = (tx: Tx, memberId: number) => lockRows(tx, 'member', [memberId]);

/** Locks member cards in ascending id, before a write that charges or refunds several of them. */
export const lockCards = (tx: Tx, ids: Iterable<number>) => lockRows(tx, 'member_card', ids);

/** Locks a store's row: staff changes of one store (roles, enabling) run one at a time. */
export const lockStore = (tx: Tx, storeId: number) => lockRows(tx, 'store', [storeId]);
