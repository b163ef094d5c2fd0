import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawJson } from './raw-json.ts';

/**
 * Compression of answers: JSON answers of at least `JSON_COMPRESS_MIN_BYTES` go out brotli- or
 * gzip-compressed when the client accepts it (brotli preferred); a cached answer (`RawJson`) is
 * compressed once per encoding and kept with it, so a cached calendar week costs one compression
 * per data version, not one per request. Web assets are compressed at build time instead
 * (scripts/precompress.ts, served by `webAssetOptions`).
 */
export const JSON_COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Quality 5 / level 6: most of the size gain at a small share of the CPU of the maximum. */
const compressors: Record<Encoding, (b: Buffer) => Promise<Buffer>> = {
  br: (b) =>
    brotli(b, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length },
    }),
  gzip: (b) => gzip(b, { level: 6 }),
};

/** The encoding to answer with for an `Accept-Encoding` header (q-values honoured), or null. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (e: Encoding) => q.get(e) ?? q.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** Adds `Accept-Encoding` to the answer's Vary header (once). */
export function varyOnEncoding(reply: FastifyReply): void {
  const current = String(reply.getHeader('vary') ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) return;
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

const isJson = (reply: FastifyReply) => String(reply.getHeader('content-type') ?? '').startsWith('application/json');

/** Compresses JSON answers of at least JSON_COMPRESS_MIN_BYTES for clients that accept it. */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.getHeader('content-encoding') || !isJson(reply)) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < JSON_COMPRESS_MIN_BYTES) return payload;
    varyOnEncoding(reply);
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressors[encoding](body);
  });
}

interface Encoded {
  body: Buffer;
  compressed: Partial<Record<Encoding, Promise<Buffer>>>;
}
const encodedAnswers = new WeakMap<RawJson, Encoded>();

/**
 * Sends a cached answer as `{"code":0,"data":...,"msg":""}`: the envelope is built once per
 * RawJson and, with `compress` on, compressed once per encoding and kept beside it.
 */
export async function sendRawJson(req: FastifyRequest, reply: FastifyReply, answer: RawJson, compress: boolean) {
  let e = encodedAnswers.get(answer);
  if (!e) {
    e = { body: Buffer.from(`{"code":0,"data":${answer.json},"msg":""}`), compressed: {} };
    encodedAnswers.set(answer, e);
  }
  reply.type('application/json; charset=utf-8');
  if (!compress || e.body.length < JSON_COMPRESS_MIN_BYTES) return reply.send(e.body);
  varyOnEncoding(reply);
  const encoding = acceptedEncoding(req.headers['accept-encoding']);
  if (!encoding) return reply.send(e.body);
  const pending = (e.compressed[encoding] ??= compressors[encoding](e.body));
  return reply.header('content-encoding', encoding).send(await pending);
}
