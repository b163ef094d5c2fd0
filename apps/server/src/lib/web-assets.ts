import type { FastifyStaticOptions } from '@fastify/static';
import path from 'node:path';
import { COMPRESSIBLE } from './compressible.ts';

/** Hashed build output: its name changes with its content, so a browser may keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * How the built web app is served: the brotli / gzip copies written at build time
 * (scripts/precompress.ts) by `Accept-Encoding` when `compress` is on, with `Vary: Accept-Encoding`
 * on every file that has such copies; files under /assets/ (hashed names) immutable for a year,
 * everything else (index.html) revalidated on each load.
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
      res.setHeader('cache-control', original.startsWith(assets) ? IMMUTABLE : 'no-cache');
      if (compress && COMPRESSIBLE.test(original)) res.setHeader('vary', 'Accept-Encoding');
    },
  };
}
