import zlib from 'node:zlib';
import { insertMember, memberInfo, Msg } from '@studio/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { publishedDocument } from '../src/api-docs/routes.ts';
import { loadConfig } from '../src/config.ts';
import { documentedAnswersOf, failOnUndocumented, oncePerPlace, watchDocumentedAnswers } from './documented-answers.ts';

const config = loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
const documented = documentedAnswersOf(config);
const path = memberInfo.path;

const card = {
  id: 7,
  cardId: 3,
  cardName: '次卡',
  bigType: 1,
  cardType: 1,
  perCount: 1,
  totalCount: 10,
  usedCount: 2,
  expireTime: null,
  frozen: 0,
  refundedAt: null,
  createdAt: '2026-12-01 10:00:00',
  activation: 'sale',
  activateTime: '2026-12-01 10:00:00',
  activateBy: null,
  leaveDays: 0,
  leaves: [],
  sharedWith: [],
  shareMax: 0,
};
const info = (cards: unknown[]) => ({
  code: 0,
  data: {
    id: 1,
    name: '张三',
    mobile: '13800138000',
    gender: 1,
    birthday: null,
    createdAt: '2026-12-01 10:00:00',
    cards,
    sharedCards: [],
  },
  msg: '',
});

describe('every answer matches the schema the published OpenAPI document declares for it', () => {
  it('reads the document the app publishes at /api/openapi.json', () => {
    const doc = JSON.parse(publishedDocument(config));
    expect(doc.openapi).toBe('3.1.0');
    expect(documented.has(path)).toBe(true);
    expect(documented.has('/no/such/call')).toBe(false);
  });

  it('forbids undeclared properties in every answer object the document declares (z.object is strict in it)', () => {
    const doc = JSON.parse(publishedDocument(config)) as { components: { schemas: Record<string, unknown> } };
    const open: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      // an object with named properties; a map (z.record: no properties) says what its values are instead
      if (o.properties && o.additionalProperties !== false) open.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      if (/Answer(_|$)/.test(name)) walk(schema, `#/components/schemas/${name}`);
    }
    expect(open).toEqual([]);
  });

  it('accepts an answer that matches, and a declared failure', () => {
    expect(documented.mismatches(path, 200, info([card, { ...card, id: 8 }]))).toEqual([]);
    expect(documented.mismatches(path, 404, { code: 404, data: null, msg: Msg.notFoundRoute })).toEqual([]);
  });

  it('names an undeclared property of a card by its JSON pointer (the leak query/member/info had)', () => {
    const leaky = { ...card, leavePeriods: '[]', leaveAllowed: 1, activateWithinDays: 30 };
    expect(documented.mismatches(path, 200, info([card, leaky]))).toEqual([
      `${path} /data/cards/1/leavePeriods: a property the document does not declare (its schema allows no other than its properties), value "[]"`,
      `${path} /data/cards/1/leaveAllowed: a property the document does not declare (its schema allows no other than its properties), value 1`,
      `${path} /data/cards/1/activateWithinDays: a property the document does not declare (its schema allows no other than its properties), value 30`,
    ]);
  });

  it('names a missing required property, a wrong type, a wrong enum value and a bad envelope', () => {
    const { shareMax: _gone, ...without } = card;
    expect(documented.mismatches(path, 200, info([without]))).toEqual([
      `${path} /data/cards/0/shareMax: missing, the document requires it`,
    ]);
    expect(documented.mismatches(path, 200, info([{ ...card, totalCount: '10' }]))).toEqual([
      `${path} /data/cards/0/totalCount: expected number, got "10"`,
    ]);
    expect(documented.mismatches(path, 200, info([{ ...card, activation: 'later' }]))).toEqual([
      `${path} /data/cards/0/activation: must be equal to one of the allowed values ["sale","first_class","date"], got "later"`,
    ]);
    expect(documented.mismatches(insertMember.path, 200, { code: 0, data: { id: 1 } })).toEqual([
      `${insertMember.path} /msg: missing, the document requires it`,
    ]);
    expect(documented.mismatches(insertMember.path, 201, { code: 0, data: { id: 1 }, msg: '' })).toEqual([
      `${insertMember.path}: a success (code 0) sent with HTTP 201, not 200`,
    ]);
  });

  it('reports a fault once per place, counting the same one in other items', () => {
    const a = `${path} /data/cards/0/x: a property the document does not declare (its schema allows no other than its properties), value 1`;
    const b = `${path} /data/cards/3/x: a property the document does not declare (its schema allows no other than its properties), value 2`;
    const c = `${path} /data/cards/0/y: missing, the document requires it`;
    expect(oncePerPlace([a, b, a, c])).toEqual([`${a} (and 1 more like it)`, c]);
  });

  it('watches an app: an answer outside its document fails the suite, compressed or not', async () => {
    const app = Fastify();
    const watch = watchDocumentedAnswers(app, config);
    app.post(path, async (req, reply) => {
      const body = JSON.stringify(info([(req.body as { card: unknown }).card]));
      if (!req.headers['accept-encoding']) return reply.type('application/json; charset=utf-8').send(body);
      // sent as the compressed answers go out (lib/compression.ts)
      return reply
        .type('application/json; charset=utf-8')
        .header('content-encoding', 'br')
        .send(zlib.brotliCompressSync(Buffer.from(body)));
    });
    await app.ready();
    try {
      const send = (c: unknown, headers: Record<string, string> = {}) =>
        app.inject({ method: 'POST', url: path, payload: { card: c }, headers });
      expect((await send(card)).statusCode).toBe(200);
      expect(() => failOnUndocumented(watch)).not.toThrow();
      await send({ ...card, leaveAllowed: 1 });
      await send({ ...card, leaveAllowed: 0 }, { 'accept-encoding': 'br' });
      expect(() => failOnUndocumented(watch)).toThrow(
        `${path} /data/cards/0/leaveAllowed: a property the document does not declare (its schema allows no other than its properties), value 1 (and 1 more like it)`,
      );
      // reported once, then the next test starts clean
      expect(() => failOnUndocumented(watch)).not.toThrow();
    } finally {
      await app.close();
    }
  });
});
