import type { Executor } from '../db/index.ts';

/**
 * What the engine announces, inside the transaction that made the change: listeners write in that
 * same transaction (a store message, a promotion, an audit entry), so an announcement commits or
 * rolls back with the change it describes.
 *
 * Each feature defines the kinds of event it announces beside the code that announces them (its
 * `events.ts`, with `defineEvent`), carrying what its listeners need, so no listener reads the
 * change back. Listeners are added by the feature that reacts, in its definition, beside its call
 * handlers (`Registry.on`, lib/feature.ts).
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

const listeners = new Map<string, Set<Listener<never>>>();

/**
 * Adds a listener of a kind of event (once: adding the same function again changes nothing, so it
 * must be a function of its module, not one made anew for each app). Called by the app for each
 * feature's `Registry.on`.
 */
export function listen<P>(kind: EventKind<P>, listener: Listener<P>): void {
  let set = listeners.get(kind.name);
  if (!set) listeners.set(kind.name, (set = new Set()));
  set.add(listener as Listener<never>);
}

/**
 * Announces events in the caller's transaction: each event's listeners one after the other, in the
 * order they were added; the events they answer after these, first in first out.
 */
export async function emit(tx: Executor, ...events: readonly Announced[]): Promise<void> {
  const queue = [...events];
  for (let e = queue.shift(); e; e = queue.shift()) {
    for (const l of listeners.get(e.kind.name) ?? []) {
      const more = await l(tx, e.payload as never);
      if (more) queue.push(...more);
    }
  }
}
