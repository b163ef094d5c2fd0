import type { z } from 'zod';

/**
 * Who may make a call: `public` needs nothing; `staff` needs a logged-in staff member;
 * `store` also resolves the store the call acts in (first post, X-Store-Id header or payload storeId).
 */
export type CallAuth = 'public' | 'staff' | 'store';

export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  path: string;
  auth: CallAuth;
  req: Req;
  res: Res;
  /** Body limit in bytes when it differs from the default. */
  bodyLimit?: number;
  /** The call also accepts application/x-www-form-urlencoded bodies. */
  form?: boolean;
  /** Payload fields that name ids of the acting store, for the tenant-isolation matrix. */
  idFields?: readonly string[];
}

export function defineCall<Req extends z.ZodType, Res extends z.ZodType>(def: CallDef<Req, Res>): CallDef<Req, Res> {
  return def;
}

export type ReqOf<C> = C extends CallDef<infer R, z.ZodType> ? z.input<R> : never;
export type ParsedReqOf<C> = C extends CallDef<infer R, z.ZodType> ? z.output<R> : never;
export type ResOf<C> = C extends CallDef<z.ZodType, infer S> ? z.output<S> : never;

export const STORE_API = '/store/api';
