import zlib from 'node:zlib';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { publishedDocument } from '../src/api-docs/routes.ts';
import type { Config } from '../src/config.ts';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  paths: Record<string, { post?: Operation }>;
}

/** JSON pointer token (RFC 6901). */
const token = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The answers of a published OpenAPI document: for a call's path and an answer's HTTP status, the
 * schema the document declares for the whole `{code, data, msg}` envelope, compiled once.
 */
export class DocumentedAnswers {
  private readonly doc: Document;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | null>();

  /** `text`: the document as published (the JSON text of /api/openapi.json). */
  constructor(text: string) {
    this.doc = JSON.parse(text) as Document;
    // strict: false, as the document carries OpenAPI's own keywords (example, x-errors) beside the schemas.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    this.ajv.addSchema({ ...this.doc, $id: 'openapi.json' });
  }

  /** Whether the document has the call (a POST of the contract). */
  has(path: string): boolean {
    return Boolean(this.doc.paths[path]?.post);
  }

  private validator(path: string, status: number): ValidateFunction | null {
    const key = `${path} ${status}`;
    if (!this.compiled.has(key)) {
      const schema = this.doc.paths[path]?.post?.responses[String(status)]?.content?.['application/json']?.schema;
      const at = `openapi.json#/paths/${token(path)}/post/responses/${status}/content/${token('application/json')}/schema`;
      this.compiled.set(key, schema ? this.ajv.compile({ $ref: at }) : null);
    }
    return this.compiled.get(key)!;
  }

  /**
   * How an answer of call `path`, sent with HTTP `status`, departs from the schema the document
   * declares for it: one line per fault, `<path> <JSON pointer in the answer>: <fault>`; empty when it
   * matches. A success (code 0) is checked against the document's 200 answer, a failure against the
   * response of its status when the document has one (whether it declares that failure at all is
   * declared-errors.ts's business).
   */
  mismatches(path: string, status: number, answer: unknown): string[] {
    if (!this.has(path)) return [];
    const success = (answer as { code?: unknown } | null)?.code === 0;
    const validate = this.validator(path, success ? 200 : status);
    if (!validate) return success ? [`${path}: the document declares no answer for a success`] : [];
    if (success && status !== 200) return [`${path}: a success (code 0) sent with HTTP ${status}, not 200`];
    if (validate(answer)) return [];
    return describe(path, answer, validate.errors ?? []);
  }
}

function valueAt(answer: unknown, pointer: string): unknown {
  let node = answer;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

const shown = (v: unknown) => {
  const text = v === undefined ? 'nothing' : JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** One line per fault, the most telling first; the `anyOf` summaries that only repeat their branches are left out. */
function describe(path: string, answer: unknown, errors: ErrorObject[]): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const p = e.params as Record<string, unknown>;
    const at = e.instancePath || '/';
    if (e.keyword === 'additionalProperties') {
      const prop = String(p.additionalProperty);
      lines.add(
        `${path} ${e.instancePath}/${token(prop)}: a property the document does not declare (its schema allows no other than its properties), value ${shown(valueAt(answer, `${e.instancePath}/${token(prop)}`))}`,
      );
    } else if (e.keyword === 'required') {
      lines.add(`${path} ${e.instancePath}/${token(String(p.missingProperty))}: missing, the document requires it`);
    } else if (e.keyword === 'type') {
      lines.add(`${path} ${at}: expected ${String(p.type)}, got ${shown(valueAt(answer, e.instancePath))}`);
    } else {
      lines.add(
        `${path} ${at}: ${e.message ?? e.keyword}${p.allowedValues ? ` ${JSON.stringify(p.allowedValues)}` : ''}, got ${shown(valueAt(answer, e.instancePath))}`,
      );
    }
  }
  return [...lines];
}

const byText = new Map<string, DocumentedAnswers>();
/** The document an app with this config publishes, compiled once per process. */
export function documentedAnswersOf(config: Pick<Config, 'cookieSecure'>): DocumentedAnswers {
  const text = publishedDocument(config);
  let found = byText.get(text);
  if (!found) {
    found = new DocumentedAnswers(text);
    byText.set(text, found);
  }
  return found;
}

/** The JSON an answer's payload carries, as the client receives it (decompressed), or undefined. */
function parsedPayload(payload: unknown, encoding: unknown): unknown {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return undefined;
  let body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (encoding === 'br') body = zlib.brotliDecompressSync(body);
  else if (encoding === 'gzip') body = zlib.gunzipSync(body);
  else if (encoding) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Watches every answer of an app under test, as it goes on the wire (compressed or not, cached
 * JSON text included): an answer of a contract call that departs from the schema the app's
 * published OpenAPI document (/api/openapi.json) declares for it (a property it does not declare, a
 * required one missing, a wrong type) is recorded. The suites fail on it (the harness's `afterEach`
 * and `afterAll`), so the document stays exact. Must be called before `app.ready()`.
 */
export function watchDocumentedAnswers(
  app: FastifyInstance,
  config: Pick<Config, 'cookieSecure'>,
): { take(): string[] } {
  const documented = documentedAnswersOf(config);
  let found: string[] = [];
  app.addHook('onSend', async (req, reply, payload) => {
    const path = req.routeOptions.url;
    if (req.method !== 'POST' || !path || !documented.has(path)) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const answer = parsedPayload(payload, reply.getHeader('content-encoding'));
    if (answer !== undefined) found.push(...documented.mismatches(path, reply.statusCode, answer));
    return payload;
  });
  return {
    take() {
      const out = oncePerPlace(found);
      found = [];
      return out;
    },
  };
}

/**
 * The faults, each place once: the same fault at the same place of other items of a list, or of
 * other answers of the call, is counted on the first one's line (`/data/list/0/x`, `/data/list/7/x`).
 */
export function oncePerPlace(faults: string[]): string[] {
  const byPlace = new Map<string, { line: string; more: number }>();
  for (const line of faults) {
    const place = line.replace(/\/\d+(?=[/: ])/g, '/*').replace(/, (value|got) .*$/, '');
    const seen = byPlace.get(place);
    if (seen) seen.more += line === seen.line ? 0 : 1;
    else byPlace.set(place, { line, more: 0 });
  }
  return [...byPlace.values()].map(({ line, more }) => (more ? `${line} (and ${more} more like it)` : line));
}

/** Throws (failing the test or hook it runs in) when the watched app answered outside its document. */
export function failOnUndocumented(watch: { take(): string[] }): void {
  const faults = watch.take();
  if (faults.length) {
    throw new Error(
      `answers that do not match the schema /api/openapi.json declares for them (fix the answer, or the call's answer schema in the contract when the answer is right):\n  ${faults.join('\n  ')}`,
    );
  }
}
