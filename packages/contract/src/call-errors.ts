// The failures a call can answer, for the API reference: those every call shares, the messages its
// request schema words itself, and the ones it declares (`errors` of defineCall).
import type { z } from 'zod';
import { STAFF_ROLES, type CallDef, type CallError } from './define.ts';
import { Msg } from './messages.ts';
import { GENERIC_ISSUE_MESSAGES } from './zod-zh.ts';

/** What a schema's own error function is called with: a message that quotes the input shows `{值}`. */
const SAMPLE_ISSUE = { code: 'custom', input: '{值}', path: [], message: '' };

function ownMessage(error: unknown): string | undefined {
  if (typeof error !== 'function') return undefined;
  try {
    const out: unknown = error(SAMPLE_ISSUE);
    if (typeof out === 'string') return out;
    if (out && typeof out === 'object' && typeof (out as { message?: unknown }).message === 'string') {
      return (out as { message: string }).message;
    }
  } catch {
    // an error function that needs a real issue has no fixed message
  }
  return undefined;
}

/**
 * The Chinese messages a zod schema words itself: the `error` of each field and check, through
 * objects, arrays, unions, pipes, defaults and lazy schemas. Messages added inside a refinement's
 * code (`ctx.addIssue`) cannot be seen here; a call declares those in its `errors`.
 */
export function schemaMessages(schema: z.ZodType): string[] {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (s: unknown): void => {
    const def = (s as { _zod?: { def?: Record<string, any> } } | undefined)?._zod?.def;
    if (!def || seen.has(s)) return;
    seen.add(s);
    const own = ownMessage(def.error);
    if (own) found.add(own);
    for (const check of (def.checks ?? []) as { _zod?: { def?: { error?: unknown } } }[]) {
      const msg = ownMessage(check._zod?.def?.error);
      if (msg) found.add(msg);
    }
    if (def.shape) for (const field of Object.values(def.shape)) visit(field);
    for (const key of ['element', 'innerType', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'schema']) {
      if (def[key]) visit(def[key]);
    }
    for (const option of (def.options ?? []) as unknown[]) visit(option);
    if (def.type === 'lazy' && typeof def.getter === 'function') visit(def.getter());
  };
  visit(schema);
  return [...found];
}

/** Every failure a call can answer, by status: shared ones, its schema's messages, the generic field messages, its own. */
export function callErrors(call: CallDef): CallError[] {
  const all: CallError[] = [
    { status: 400, msg: Msg.badRequest },
    { status: 400, msg: Msg.badJson },
    { status: 400, msg: Msg.nulCharacter },
    ...[...schemaMessages(call.req), ...GENERIC_ISSUE_MESSAGES].map((msg): CallError => ({ status: 400, msg })),
    ...(call.errors ?? []),
  ];
  // Not logged in, or logged out because the account was disabled (the login page says so).
  if (call.auth !== 'public') all.push({ status: 401, msg: Msg.notLoggedIn });
  if (call.auth === 'staff' || call.auth === 'store') all.push({ status: 401, msg: Msg.staffDisabled });
  if (call.auth === 'store') all.push({ status: 403, msg: Msg.forbiddenStore });
  // The route loop's role check (roles of the contract), and a teacher naming another's session.
  if (call.roles && STAFF_ROLES.some((r) => !call.roles!.includes(r)))
    all.push({ status: 403, msg: Msg.forbiddenRole });
  if (call.teacherOwns) all.push({ status: 403, msg: Msg.forbiddenSession });
  all.push(
    // Every call is a POST: a page of another site sending it is refused before it runs (lib/origin.ts).
    { status: 403, msg: Msg.foreignOrigin },
    { status: 408, msg: Msg.requestTimeout },
    { status: 413, msg: Msg.tooLarge },
    { status: 415, msg: Msg.unsupportedMedia },
    { status: 503, msg: Msg.dbBusy },
    { status: 503, msg: Msg.dbUnavailable },
  );
  const unique = new Map(all.map((e) => [`${e.status} ${e.msg}`, e]));
  return [...unique.values()].sort((a, b) => a.status - b.status);
}

/** A declared message as a pattern: its `{…}` parts (filled in at run time) match any text. */
function declaredPattern(msg: string): RegExp {
  return new RegExp(`^${msg.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]*\}/g, '[\\s\\S]+')}$`);
}

/** Whether `errors` (a call's callErrors) declare an answer of this status and message. */
export function declaresError(errors: readonly CallError[], status: number, msg: string): boolean {
  return errors.some((e) => e.status === status && declaredPattern(e.msg).test(msg));
}
