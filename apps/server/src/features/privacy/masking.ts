import { maskMobile, type CallDef, type StaffRole } from '@studio/contract';
import { z } from 'zod';
import { RawJson } from '../../lib/raw-json.ts';

/**
 * Who sees what (issue 45 item 6): a member's mobile is personal information the desk and teachers
 * mostly do not need. Managers see every answer whole; the desk and teachers get the members'
 * mobiles of an answer masked (138****5678) unless the call names their role in `fullMobiles` (the
 * member's own page for the desk, a lead's follow-up for its seller). One rule, kept by the route
 * loop for every store call, so a new list cannot forget it.
 */

/** Keys that carry a person's mobile in an answer: `mobile`, `memberMobile`, `referrerMobile`... */
const MOBILE_KEY = /mobile$/i;

/** Whether the answer of `call` can hold a mobile at all (worked out once per call from its answer schema). */
export function answersMobiles(call: CallDef): boolean {
  const schema = JSON.stringify(z.toJSONSchema(call.res, { io: 'output', unrepresentable: 'any' }));
  return /"[A-Za-z]*[mM]obile":/.test(schema);
}

/** Whether `role`'s answer of `call` gets its mobiles masked. */
export function masksMobilesFor(call: CallDef, role: StaffRole | undefined): boolean {
  return role !== undefined && role !== 'manager' && !call.fullMobiles?.includes(role);
}

/** A copy of `value` with every mobile-carrying string masked (the rest shared, not copied). */
export function maskMobilesIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskMobilesIn);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = typeof v === 'string' && MOBILE_KEY.test(k) ? maskMobile(v) : maskMobilesIn(v);
  }
  return out;
}

/** The answer with its mobiles masked (a RawJson answer serialised again). */
export function answerFor(answer: unknown): unknown {
  if (answer instanceof RawJson) {
    const value = maskMobilesIn(answer.value);
    return new RawJson(JSON.stringify(value), value);
  }
  return maskMobilesIn(answer);
}
