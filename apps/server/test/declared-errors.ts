import { allCalls, callErrors, declaresError, type CallError } from '@studio/contract';
import type { FastifyInstance } from 'fastify';

/** Every call's declared failures (callErrors: the shared ones, its schema's, its own `errors`), by path. */
const declaredByPath = new Map<string, readonly CallError[]>(allCalls.map((c) => [c.path, callErrors(c)]));

/** The (status, msg) of a failed answer of a call, when the contract does not declare it for that call. */
export function undeclaredAnswer(path: string, status: number, answer: unknown): string | null {
  const declared = declaredByPath.get(path);
  if (!declared || !answer || typeof answer !== 'object') return null;
  const { code, msg } = answer as { code?: unknown; msg?: unknown };
  if (code === 0 || code === undefined) return null;
  if (typeof msg === 'string' && declaresError(declared, status, msg)) return null;
  return `${path}: ${status} ${typeof msg === 'string' ? msg : JSON.stringify(msg)}`;
}

/**
 * Watches every answer of an app under test: a failed answer (code != 0) of a contract call whose
 * status and message its call does not declare (`errors` of defineCall, with `{…}` placeholders
 * matching any text; see callErrors) is recorded. The suites fail on it (the harness's `afterEach`
 * and `afterAll` call `take`), so every answer a call can give is declared in the contract and so in
 * the API reference. Must be called before `app.ready()`.
 */
export function watchDeclaredErrors(app: FastifyInstance): { take(): string[] } {
  let found: string[] = [];
  app.addHook('preSerialization', async (req, reply, payload) => {
    const path = req.routeOptions.url;
    if (path) {
      const undeclared = undeclaredAnswer(path, reply.statusCode, payload);
      if (undeclared) found.push(undeclared);
    }
    return payload;
  });
  return {
    take() {
      const out = [...new Set(found)];
      found = [];
      return out;
    },
  };
}

/** Throws (failing the test or hook it runs in) when the watched app gave undeclared answers. */
export function failOnUndeclared(watch: { take(): string[] }): void {
  const undeclared = watch.take();
  if (undeclared.length) {
    throw new Error(
      `answers the contract does not declare for their call (add them to the call's errors):\n  ${undeclared.join('\n  ')}`,
    );
  }
}
