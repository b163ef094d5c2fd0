/**
 * Baseline for bench/booking.ts on PostgreSQL: the writes of one booking done straight with `pg`,
 * no HTTP, no validation, no Kysely, on a schema of its own migrated like the app's (same tables,
 * indexes and triggers): per booking one transaction of two conditional UPDATEs (the seat, the
 * card balance) and the inserts the engine makes (reservation, history, card ledger), each a round
 * trip as the app makes them, from `clients` connections at once booking distinct (card, session)
 * pairs over 400 sessions and 2000 cards, in the HTTP run's order (lib/pairs.ts). Answers bookings
 * per second.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/index.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { pairOf, type Order } from './pairs.ts';

export async function rawPgBookingsPerSecond(
  url: string,
  seconds: number,
  clients: number,
  order: Order,
): Promise<{ perSecond: number; count: number }> {
  const schema = `bench_raw_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const handle = openDatabase({ url, schema, poolMax: 2 });
  await migrateToLatest(handle.db, 'postgres');
  await handle.close();
  const pool = new pg.Pool({ connectionString: url, max: clients, options: `-c search_path=${schema}` });
  try {
    const one = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows[0];
    const now = '2026-01-01 00:00:00';
    const store = await one(
      `insert into store (name, timezone, created_at) values ('raw', 'Asia/Shanghai', 0) returning id`,
    );
    const sid = store.id as number;
    const teacher = await one(`insert into teacher (store_id, name, deleted) values ($1, 't', 0) returning id`, [sid]);
    const course = await one(
      `insert into course (store_id, name, count, duration, color) values ($1, 'c', 20, 60, '#1677ff') returning id`,
      [sid],
    );
    const product = await one(
      `insert into card_product (store_id, card_name, big_type, card_type, per_count, price) values ($1, 'k', 1, 2, 1, 0) returning id`,
      [sid],
    );
    const sessions = (
      await pool.query(
        `insert into timetable (store_id, course_id, teacher_id, start_time, end_time, reservable_count, color, created_at)
         select $1, $2, $3, '2099-03-01 ' || lpad((i % 24)::text, 2, '0') || ':00:00', '2099-03-01 23:59:00', 100000, '#1677ff', $4
         from generate_series(0, 399) i returning id`,
        [sid, course.id, teacher.id, now],
      )
    ).rows.map((r) => r.id as number);
    const members = (
      await pool.query(
        `insert into member (store_id, name, mobile, gender, created_at)
         select $1, 'm' || i, '139' || lpad(i::text, 8, '0'), 1, $2 from generate_series(1, 2000) i returning id`,
        [sid, now],
      )
    ).rows.map((r) => r.id as number);
    const cards = (
      await pool.query(
        `insert into member_card (store_id, member_id, card_id, total_count, used_count, created_at)
         select $1, m, $2, 1000000, 0, $3 from unnest($4::int[]) m returning id, member_id`,
        [sid, product.id, now, members],
      )
    ).rows as { id: number; member_id: number }[];

    let k = 0;
    let count = 0;
    const end = Date.now() + seconds * 1000;
    const worker = async () => {
      const c = await pool.connect();
      try {
        while (Date.now() < end) {
          // The pairs of the HTTP run, in the same order.
          const pair = pairOf(k++, cards.length, sessions.length, order);
          const card = cards[pair.card];
          const tid = sessions[pair.session];
          await c.query('begin');
          const seat = await c.query({
            name: 'seat',
            text: `update timetable set real_count = real_count + 1
                   where id = $1 and store_id = $2 and deleted = 0 and real_count + 1 <= reservable_count`,
            values: [tid, sid],
          });
          const charge = await c.query({
            name: 'charge',
            text: `update member_card set used_count = used_count + 1
                   where id = $1 and frozen = 0 and used_count + 1 <= total_count`,
            values: [card.id],
          });
          if (seat.rowCount !== 1 || charge.rowCount !== 1) throw new Error('raw booking refused');
          const r = await c.query({
            name: 'reservation',
            text: `insert into reservation (store_id, timetable_id, member_id, member_card_id, student_count, used_count, status, create_time)
                   values ($1, $2, $3, $4, 1, 1, 1, $5) returning id`,
            values: [sid, tid, card.member_id, card.id, now],
          });
          await c.query({
            name: 'history',
            text: `insert into history (store_id, timetable_id, member_id, member_card_id, reservation_id, student_count, used_count, operate_type, create_time)
                   values ($1, $2, $3, $4, $5, 1, 1, 2, $6)`,
            values: [sid, tid, card.member_id, card.id, r.rows[0].id, now],
          });
          await c.query({
            name: 'ledger',
            text: `insert into card_ledger (store_id, member_card_id, kind, amount, reservation_id, timetable_id, created_at)
                   values ($1, $2, 'deduct', 1, $3, $4, $5)`,
            values: [sid, card.id, r.rows[0].id, tid, now],
          });
          await c.query('commit');
          count++;
        }
      } finally {
        c.release();
      }
    };
    await Promise.all(Array.from({ length: clients }, worker));
    return { perSecond: Math.round(count / seconds), count };
  } finally {
    await pool.end();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}
