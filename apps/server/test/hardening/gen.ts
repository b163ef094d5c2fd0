import type { CallDef } from '@studio/contract';
import fc from 'fast-check';
import { z } from 'zod';

/** The input JSON schema of a call's request (zod 4), the fuzzer's map of each payload. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

export function requestSchema(call: CallDef): JsonSchema {
  return z.toJSONSchema(call.req, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const isIdField = (name: string) => /(^id$|Id$|Ids$|^mid$|^cid$|^tid$|^tids$|^mcIds?$)/.test(name);

/** A plausible, usually valid value for a schema; ids are drawn from `ids`. */
export function plausible(s: JsonSchema, name: string, ids: readonly number[], pick: (n: number) => number): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[pick(s.enum.length)];
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) {
    const real = branches.filter((b) => b.type !== 'null');
    return plausible(real.length ? real[pick(real.length)] : branches[0], name, ids, pick);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number': {
      if (isIdField(name) && ids.length) return ids[pick(ids.length)];
      const lo = s.minimum ?? 0;
      const hi = Math.min(s.maximum ?? 100, lo + 20);
      return lo + pick(hi - lo + 1);
    }
    case 'boolean':
      return pick(2) === 1;
    case 'string':
      return plausibleString(s, pick);
    case 'array': {
      const n = Math.max(s.minItems ?? 0, 1 + pick(3));
      return Array.from({ length: Math.min(n, s.maxItems ?? n) }, () =>
        plausible(s.items ?? {}, name.replace(/s$/, ''), ids, pick),
      );
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = plausible(v, k, ids, pick);
      return out;
    }
    case 'null':
      return null;
    default:
      return 1;
  }
}

function plausibleString(s: JsonSchema, pick: (n: number) => number): string {
  const p = s.pattern ?? '';
  if (p.includes('\\d{4}-\\d{2}-\\d{2}')) {
    const d = `2031-0${1 + pick(9)}-1${pick(10)}`;
    return p.includes(':') && pick(2) ? `${d} 0${pick(10)}:30:00` : d;
  }
  if (p.includes('[01]\\d|2[0-3]')) return `${10 + pick(10)}:${pick(2) ? '00' : '30'}`;
  if (p.startsWith('^1\\d{10}')) return `139${String(10_000_000 + pick(89_999_999))}`;
  if (p.includes('#[0-9a-fA-F]{6}')) return '#a0b1c2';
  if (p.includes('https?')) return 'https://meet.example.test/room';
  const min = s.minLength ?? 0;
  return ['测试', 'a', '名称 x', '  空格  ', ''][pick(5)].padEnd(min, 'x').slice(0, s.maxLength ?? 50);
}

/** Hostile values for any field. `NaN` and `Infinity` need raw JSON text (see `rawBodies`). */
export function hostileValues(otherIds: readonly number[]): unknown[] {
  const big = 'x'.repeat(100_000);
  return [
    null,
    true,
    false,
    0,
    -1,
    -0.5,
    1.5,
    2 ** 31,
    2 ** 53,
    -(2 ** 53),
    1e308,
    -1e308,
    Number.MIN_VALUE,
    '',
    ' ',
    '1',
    '0',
    '-1',
    'abc',
    big,
    '中'.repeat(100_000),
    "'; drop table member; --",
    '<script>alert(1)</script>',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '0000-01-01',
    '9999-12-31',
    '2026-2-3',
    '25:61',
    '24:00',
    '9:00',
    '2026-03-01 25:61:00',
    '2026-02-29 10:00:00',
    [],
    [null],
    [-1, 0, 1.5],
    Array.from({ length: 5000 }, (_, i) => i + 1),
    {},
    { id: 1 },
    { __proto__: { admin: true } },
    ...otherIds,
  ];
}

export type Mutation =
  | { kind: 'set'; field: number; value: number }
  | { kind: 'drop'; field: number }
  | { kind: 'extra'; key: number; value: number }
  | { kind: 'item'; field: number; value: number }
  | { kind: 'replace'; value: number };

const EXTRA_KEYS = ['__proto__', 'constructor', 'storeId', 'extra', 'id', 'toString', '$where', ''];
const NON_OBJECTS: unknown[] = [[], 'text', 42, null, true, [{}], 0];

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), field: fc.nat(), value: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), field: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('extra' as const), key: fc.nat(), value: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('item' as const), field: fc.nat(), value: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: fc.nat() }) },
);

/** Applies mutations to a (plausible) payload; the result may be any JSON value. */
export function mutate(base: Record<string, unknown>, muts: Mutation[], hostile: unknown[]): unknown {
  let body: unknown = structuredClone(base);
  for (const m of muts) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) break;
    const obj = body as Record<string, unknown>;
    const keys = Object.keys(obj);
    const key = keys.length ? keys[('field' in m ? m.field : 0) % keys.length] : 'x';
    switch (m.kind) {
      case 'set':
        obj[key] = hostile[m.value % hostile.length];
        break;
      case 'drop':
        delete obj[key];
        break;
      case 'extra':
        Object.defineProperty(obj, EXTRA_KEYS[m.key % EXTRA_KEYS.length], {
          value: hostile[m.value % hostile.length],
          enumerable: true,
          writable: true,
          configurable: true,
        });
        break;
      case 'item':
        obj[key] = Array.isArray(obj[key])
          ? [...(obj[key] as unknown[]), hostile[m.value % hostile.length]]
          : [hostile[m.value % hostile.length]];
        break;
      case 'replace':
        body = NON_OBJECTS[m.value % NON_OBJECTS.length];
        break;
    }
  }
  return body;
}

/** Bodies that cannot be written as JS values: broken JSON, NaN, Infinity, deep nesting, sizes. */
export function rawBodies(fields: string[]): { name: string; body: string | Buffer; type: string }[] {
  const f = fields[0] ?? 'id';
  const json = 'application/json';
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const deepObj = `{"${f}":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`;
  return [
    { name: 'broken json', body: '{"a": ', type: json },
    { name: 'trailing comma', body: `{"${f}": 1,}`, type: json },
    { name: 'NaN', body: `{"${f}": NaN}`, type: json },
    { name: 'Infinity', body: `{"${f}": 1e999}`, type: json },
    { name: 'negative infinity', body: `{"${f}": -1e999}`, type: json },
    { name: 'single quotes', body: `{'${f}': 1}`, type: json },
    { name: 'bom', body: `\uFEFF{"${f}": 1}`, type: json },
    { name: 'null body', body: 'null', type: json },
    { name: 'array body', body: '[1,2,3]', type: json },
    { name: 'string body', body: '"hello"', type: json },
    { name: 'number body', body: '12', type: json },
    { name: 'deep array', body: deep, type: json },
    { name: 'deep object', body: deepObj, type: json },
    { name: 'duplicate keys', body: `{"${f}": 1, "${f}": "x"}`, type: json },
    { name: 'json with charset', body: `{"${f}": 1}`, type: 'application/json; charset=gbk' },
    { name: 'text/plain', body: `{"${f}": 1}`, type: 'text/plain' },
    {
      name: 'multipart',
      body: `--b\r\nContent-Disposition: form-data; name="${f}"\r\n\r\n1\r\n--b--\r\n`,
      type: 'multipart/form-data; boundary=b',
    },
    { name: 'form', body: `${f}=1&${f}=2`, type: 'application/x-www-form-urlencoded' },
    { name: 'xml', body: `<${f}>1</${f}>`, type: 'application/xml' },
    { name: 'oversized', body: `{"${f}": "${'x'.repeat(1024 * 1024 + 10)}"}`, type: json },
    { name: 'binary', body: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b]), type: json },
    { name: 'invalid utf8', body: Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), type: json },
  ];
}
