/**
 * Baseline for bench/booking.ts: the writes of one booking done straight on SQLite with
 * better-sqlite3 (same schema, WAL, synchronous=FULL), one transaction per booking, no HTTP,
 * no validation, no Kysely: guarded seat and balance updates, the reservation, its history and
 * ledger rows, and the store's data-version bump. Answers bookings per second.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { openDatabase } from '../../apps/server/src/db/index.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';

export async function rawBookingsPerSecond(seconds: number): Promise<{ perSecond: number; count: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-raw-'));
  const file = path.join(dir, 'raw.db');
  const handle = openDatabase({ file });
  await migrateToLatest(handle.db, 'sqlite');
  await handle.close();

  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const now = '2026-01-01 00:00:00';
  db.prepare(`insert into store (name, timezone, created_at) values ('raw', 'Asia/Shanghai', 0)`).run();
  db.prepare(`insert into teacher (store_id, name, deleted) values (1, 't', 0)`).run();
  db.prepare(`insert into course (store_id, name, count, duration, color) values (1, 'c', 20, 60, '#1677ff')`).run();
  db.prepare(
    `insert into card_product (store_id, card_name, big_type, card_type, per_count, price) values (1, 'k', 1, 2, 1, 0)`,
  ).run();
  const sessions = 400;
  const members = 2000;
  const seed = db.transaction(() => {
    const s = db.prepare(
      `insert into timetable (store_id, course_id, teacher_id, start_time, end_time, reservable_count, color, created_at)
       values (1, 1, 1, ?, ?, 100000, '#1677ff', ?)`,
    );
    for (let i = 0; i < sessions; i++)
      s.run(`2099-03-01 ${String(i % 24).padStart(2, '0')}:00:00`, '2099-03-01 23:59:00', now);
    const m = db.prepare(`insert into member (store_id, name, mobile, gender, created_at) values (1, ?, ?, 1, ?)`);
    const c = db.prepare(
      `insert into member_card (store_id, member_id, card_id, total_count, used_count, created_at) values (1, ?, 1, 1000000, 0, ?)`,
    );
    for (let i = 1; i <= members; i++) {
      m.run(`m${i}`, `139${String(i).padStart(8, '0')}`, now);
      c.run(i, now);
    }
  });
  seed();

  const seat = db.prepare(
    `update timetable set real_count = real_count + ? where id = ? and store_id = 1 and deleted = 0 and real_count + ? <= reservable_count`,
  );
  const charge = db.prepare(
    `update member_card set used_count = used_count + ? where id = ? and frozen = 0 and used_count + ? <= total_count`,
  );
  const reservation = db.prepare(
    `insert into reservation (store_id, timetable_id, member_id, member_card_id, student_count, used_count, status, create_time)
     values (1, ?, ?, ?, 1, 1, 1, ?) returning id`,
  );
  const history = db.prepare(
    `insert into history (store_id, timetable_id, member_id, member_card_id, reservation_id, student_count, used_count, operate_type, create_time)
     values (1, ?, ?, ?, ?, 1, 1, 2, ?)`,
  );
  const ledger = db.prepare(
    `insert into card_ledger (store_id, member_card_id, kind, amount, reservation_id, timetable_id, created_at)
     values (1, ?, 'deduct', 1, ?, ?, ?)`,
  );
  const version = db.prepare(`update store_version set version = version + 1 where store_id = 1`);
  const book = db.transaction((tid: number, card: number) => {
    version.run();
    if (seat.run(1, tid, 1).changes !== 1) throw new Error('full');
    if (charge.run(1, card, 1).changes !== 1) throw new Error('balance');
    const { id } = reservation.get(tid, card, card, now) as { id: number };
    history.run(tid, card, card, id, now);
    ledger.run(card, id, tid, now);
  });

  let count = 0;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    // Pair k -> card k mod C, session (k div C) mod S, as the HTTP benchmark books.
    book(1 + (Math.floor(count / members) % sessions), 1 + (count % members));
    count++;
  }
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { perSecond: Math.round(count / seconds), count };
}
