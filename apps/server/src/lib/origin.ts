import { Msg } from '@studio/contract';
import type { FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Same-site forgery guard, for every request that is not a read (every call of the API is a POST):
 * the page that sent it, `Origin` or else `Referer`, must be the server's own (same host and port
 * as the Host header the browser used) or one of `allowedOrigins` (ALLOWED_ORIGINS, e.g. behind a
 * proxy); otherwise 403 before the body is read. A request with neither header is not from a
 * browser (browsers send Origin on every POST) and passes: API clients and scripts keep working.
 */
export function originGuard(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return async (req: FastifyRequest) => {
    if (READS.has(req.method)) return;
    const origin = req.headers.origin ?? req.headers.referer;
    if (origin === undefined) return;
    if (!isOwnOrAllowed(origin, req.host, allowed)) throw forbidden(Msg.foreignOrigin);
  };
}

function isOwnOrAllowed(source: string, host: string, allowed: Set<string>): boolean {
  try {
    const from = new URL(source);
    if (allowed.has(from.origin)) return true;
    // The Host header read with the page's scheme, so `localhost:80` and `http://localhost` agree.
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false; // `Origin: null` (sandboxed frames, file: pages) or an unreadable value
  }
}
