import type { Executor } from '../db/index.ts';

/**
 * What the engine announces, inside the transaction that made the change: listeners write in that
 * same transaction (a store message, a promotion, an audit entry), so an announcement commits or
 * rolls back with the change it describes.
 *
 * Each feature defines the kinds of event it announces beside the code that announces them (its
 * `events.ts`, with `defineEvent`), carrying what its listeners need, so no listener reads the
 * change back. Listeners are added by the feature that reacts, in its definition, beside its call
 * handlers (`Registry.on`, lib/feature.ts), each at its stage; they belong to the app (`Events`).
 */

/** A kind of event: its name, and (in its type) what each event of it carries. */
export interface EventKind<P> {
  readonly name: string;
  /** Only for the type: what an event of this kind carries. */
  readonly carries?: (payload: P) => void;
}

/** What an event of a kind carries. */
export type PayloadOf<K> = K extends EventKind<infer P> ? P : never;

/** A kind of event of a feature (its name says the feature and what happened: `booking.cancelled`). */
export function defineEvent<P extends { storeId: number }>(name: string): EventKind<P> {
  return { name };
}

/** An event to announce: its kind and what it carries. */
export interface Announced {
  readonly kind: EventKind<never>;
  readonly payload: unknown;
}

/** An event of `kind` carrying `payload`, to announce (`emit`) or to answer from a listener. */
export function event<P>(kind: EventKind<P>, payload: P): Announced {
  return { kind: kind as EventKind<never>, payload };
}

/**
 * Reacts to one kind of event in the transaction of the change. It may answer events of its own
 * (a cancel that frees a seat answers the promotion it made): they are announced after this event's
 * other listeners, never inside a listener.
 */
export type Listener<P> = (tx: Executor, payload: P) => Promise<void | readonly Announced[]>;

/**
 * When a listener runs among the listeners of one event, stated where it is added (never the order
 * in which features are registered):
 * - `guard`: may refuse the change by throwing, before any listener writes (teacher pay: a closed
 *   month's sessions keep their teacher and time);
 * - `write`: a change that follows from the event, in the same transaction (a waitlist promotion,
 *   a reminder planned or withdrawn);
 * - `announce`: tells someone of the change (a store message, a counter), after every write of the
 *   event's listeners, so it tells what was finally done.
 * Within one stage the order is the order of adding, and listeners of one stage must not depend on it.
 */
export type Stage = 'guard' | 'write' | 'announce';
const STAGES: readonly Stage[] = ['guard', 'write', 'announce'];

/**
 * The listeners of one app (app.ts makes one for each app it builds, fills it from each feature's
 * `Registry.on`, and hands it to everything that announces: `AppDeps.events`). Two apps in one
 * process share nothing.
 */
export class Events {
  private readonly byKind = new Map<string, { listener: Listener<never>; rank: number }[]>();

  /** Adds a listener of a kind of event, at its stage (adding the same function again changes nothing). */
  on<P>(kind: EventKind<P>, listener: Listener<P>, stage: Stage): void {
    const list = this.byKind.get(kind.name) ?? [];
    if (list.some((x) => x.listener === listener)) return;
    list.push({ listener: listener as Listener<never>, rank: STAGES.indexOf(stage) });
    // By stage; within one, in the order added (the sort is stable).
    this.byKind.set(
      kind.name,
      list.sort((x, y) => x.rank - y.rank),
    );
  }

  /** The listeners of a kind of event, in the order they run (the tests read it). */
  listenersOf<P>(kind: EventKind<P>): readonly Listener<P>[] {
    return (this.byKind.get(kind.name) ?? []).map((x) => x.listener as Listener<P>);
  }

  /**
   * Announces events in the caller's transaction: each event's listeners one after the other, by
   * stage; the events they answer after these, first in first out.
   */
  async emit(tx: Executor, ...events: readonly Announced[]): Promise<void> {
    const queue = [...events];
    for (let e = queue.shift(); e; e = queue.shift()) {
      for (const { listener } of this.byKind.get(e.kind.name) ?? []) {
        const more = await listener(tx, e.payload as never);
        if (more) queue.push(...more);
      }
    }
  }
}
