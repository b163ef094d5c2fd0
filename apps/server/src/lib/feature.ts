import type { CallDef, ParsedReqOf, ResOf } from '@studio/contract';
import type { CallCtx } from './context.ts';
import type { RawJson } from './raw-json.ts';

export type Handler<C extends CallDef> = (input: ParsedReqOf<C>, ctx: CallCtx) => Promise<ResOf<C> | RawJson>;

export interface Registry {
  handle<C extends CallDef>(call: C, handler: Handler<C>): void;
}

/** A feature module: binds handlers to calls of the contract. */
export type Feature = (r: Registry) => void;

export const defineFeature = (f: Feature): Feature => f;
