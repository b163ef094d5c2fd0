import type { FastifyStaticOptions } from '@fastify/static';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { COMPRESSIBLE } from './compressible.ts';

/** Hashed build output: its name changes with its content, so a browser may keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Headers the security middleware sets on every answer that only a document (a page) obeys: a
 * browser applies none of them to a script or a style sheet. On a hashed asset they were 600 of
 * its 940 bytes of headers, on each of the first load's 19 scripts (bench/web-first-load.ts counts
 * what goes over the wire). Scripts and styles keep `x-content-type-options: nosniff` and
 * `cross-origin-resource-policy`, which do apply to them.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * How the built web app is served: the brotli / gzip copies written at build time
 * (scripts/precompress.ts) by `Accept-Encoding` when `compress` is on, with `Vary: Accept-Encoding`
 * on every file that has such copies; files under /assets/ (hashed names) immutable for a year,
 * everything else (index.html) revalidated on each load; a hashed asset without the headers only
 * a page obeys (DOCUMENT_ONLY_HEADERS).
 */
export function webAssetOptions(root: string, compress: boolean): FastifyStaticOptions {
  const assets = path.join(root, 'assets') + path.sep;
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: compress,
    cacheControl: false,
    setHeaders(res, file) {
      const original = file.replace(/\.(br|gz)$/, '');
      const hashed = original.startsWith(assets);
      res.setHeader('cache-control', hashed ? IMMUTABLE : 'no-cache');
      // @fastify/static hands over the raw response (reply.raw); its type names only the setters.
      if (hashed) for (const h of DOCUMENT_ONLY_HEADERS) (res as unknown as ServerResponse).removeHeader(h);
      if (compress && COMPRESSIBLE.test(original)) res.setHeader('vary', 'Accept-Encoding');
    },
  };
}
