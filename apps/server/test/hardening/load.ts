import type { HttpAnswer, HttpClient } from './server-process.ts';
import { pick, type LoadStore } from './scene.ts';

const API = '/store/api';

export interface LoadStats {
  /** Calls per operation and answer: `book 0`, `book 409`, ... */
  counts: Record<string, number>;
  /** Answers that broke the rules (5xx, not an envelope): at most 20 kept. */
  problems: string[];
  calls: number;
}

export interface LoadTarget {
  store: LoadStore;
  /** Logged-in clients of the store's admin, one per server. */
  clients: HttpClient[];
}

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Keeps sessions that may still be deleted (a deleted one leaves the pool). */
class Pool {
  live: number[];
  constructor(ids: number[]) {
    this.live = [...ids];
  }
  drop(id: number) {
    this.live = this.live.filter((x) => x !== id);
  }
}

/**
 * A mixed load on a mode-0 store (`book`: book, cancel, delete a session) and optionally a mode-1
 * store (`signIn`: add pending, sign in, cancel pending), from `workers` concurrent loops until
 * `until()` says stop. Every answer is checked: no 5xx, always an envelope.
 */
export async function mixedLoad(o: {
  book: LoadTarget;
  signIn?: LoadTarget;
  workers: number;
  until: () => boolean;
  /** Chance that an operation on the mode-0 store deletes a session (default 0.02). */
  deleteRate?: number;
  /** Connection failures are expected (the crash tests kill the server): count them, do not flag them. */
  tolerateDisconnect?: boolean;
  /** Called after every answer (crash tests record what was acknowledged). */
  onAnswer?: (op: string, body: Record<string, unknown>, a: HttpAnswer) => void;
}): Promise<LoadStats> {
  const stats: LoadStats = { counts: {}, problems: [], calls: 0 };
  const pools = new Map<LoadTarget, Pool>([[o.book, new Pool(o.book.store.sessions)]]);
  if (o.signIn) pools.set(o.signIn, new Pool(o.signIn.store.sessions));

  const call = async (t: LoadTarget, op: string, p: string, body: Record<string, unknown>) => {
    let a: HttpAnswer;
    try {
      a = await pick(t.clients).call(`${API}${p}`, body);
    } catch (e) {
      a = { status: 0, code: -1, data: null, msg: String((e as Error).message) };
    }
    stats.calls += 1;
    const key = `${op} ${a.code === 0 ? 0 : a.status}`;
    stats.counts[key] = (stats.counts[key] ?? 0) + 1;
    const down = a.status === 0;
    const bad = down
      ? !o.tolerateDisconnect
      : a.status >= 500 || typeof a.code !== 'number' || typeof a.msg !== 'string';
    if (bad && stats.problems.length < 20) stats.problems.push(`${op} ${JSON.stringify(body)} -> ${a.status} ${a.msg}`);
    o.onAnswer?.(op, body, a);
    return a;
  };

  const bookOps = async (t: LoadTarget) => {
    const pool = pools.get(t)!;
    if (!pool.live.length) return;
    const tid = pick(pool.live);
    const r = Math.random();
    if (r < (o.deleteRate ?? 0.02)) {
      const a = await call(t, 'delete', '/cancel/timetable', { id: tid });
      if (a.code === 0) pool.drop(tid);
    } else if (r < 0.5) {
      const m = pick(t.store.members);
      await call(t, 'book', '/add/member/reservation', { mcId: m.card, tid, mid: m.id, studentCount: 1 });
    } else if (r < 0.6) {
      const day = t.store.firstDay;
      await call(t, 'calendar', '/query/timetable/by/date', { fromDate: day, toDate: addDays(day, 6) });
    } else {
      const list = await call(t, 'list', '/query/timetable/reservation/list', { tid, page: 1 });
      const rows = ((list.data as { list?: { reservationId: number; status: number }[] } | null)?.list ?? []).filter(
        (x) => x.status === 1,
      );
      if (rows.length) await call(t, 'cancel', '/cancel/reservation', { id: pick(rows).reservationId });
    }
  };

  const signInOps = async (t: LoadTarget) => {
    const pool = pools.get(t)!;
    const tid = pick(pool.live);
    const r = Math.random();
    if (r < 0.5) {
      const m = pick(t.store.members);
      await call(t, 'pending', '/add/member/group/pending', { mid: m.id, tid, studentCount: 1 });
      return;
    }
    const list = await call(t, 'pendingList', '/query/timetable/pending/list', { tid });
    const waiting = (
      (list.data as { pending: { id: number; status: number }; memberId: number }[] | null) ?? []
    ).filter((x) => x.pending.status === 1);
    if (!waiting.length) return;
    const item = pick(waiting);
    if (r < 0.85) {
      const card = t.store.members.find((m) => m.id === item.memberId)?.card;
      await call(t, 'signIn', '/sign/in/pending', { pendingId: item.pending.id, mcId: card });
    } else {
      await call(t, 'cancelPending', '/cancel/pending', { pendingId: item.pending.id });
    }
  };

  const worker = async (i: number) => {
    while (!o.until()) {
      if (o.signIn && i % 3 === 2) await signInOps(o.signIn);
      else await bookOps(o.book);
    }
  };
  await Promise.all(Array.from({ length: o.workers }, (_, i) => worker(i)));
  return stats;
}

/** Fires `bodies.length` calls of one path at once, spread over the clients; answers in order. */
export async function storm(
  clients: HttpClient[],
  p: string,
  bodies: Record<string, unknown>[],
): Promise<HttpAnswer[]> {
  return Promise.all(bodies.map((b, i) => clients[i % clients.length].call(`${API}${p}`, b)));
}
