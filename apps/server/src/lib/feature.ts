import type { CallDef, ParsedReqOf, ResOf } from '@studio/contract';
import type { CallCtx } from './context.ts';
import type { EventKind, Listener, Stage } from './events.ts';
import type { RawJson } from './raw-json.ts';

export type Handler<C extends CallDef> = (input: ParsedReqOf<C>, ctx: CallCtx) => Promise<ResOf<C> | RawJson>;

export interface HandleOptions {
  /**
   * Run the whole handler in one write transaction (ctx.db is that transaction): for a handler whose
   * writes are plain statements, so that they and the call's audit entry commit together. Not for a
   * handler that calls a provider over the network.
   */
  tx?: boolean;
}

export interface Registry {
  handle<C extends CallDef>(call: C, handler: Handler<C>, opts?: HandleOptions): void;
  /**
   * Reacts to a kind of event another feature announces, at a stage among that event's listeners
   * (lib/events.ts `Stage`: `guard` refuses, `write` follows, `announce` tells).
   */
  on<P>(kind: EventKind<P>, listener: Listener<P>, stage: Stage): void;
}

/** A feature module: binds handlers to calls of the contract. */
export type Feature = (r: Registry) => void;

export const defineFeature = (f: Feature): Feature => f;
