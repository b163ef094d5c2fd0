import { Validator } from '@seriousme/openapi-schema-validator';
import { allCalls, callErrors, declaresError, Msg, type CallDef, type CallError } from '@studio/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { Client, describeEachDb } from '../../test/harness.ts';
import { buildOpenApi } from './openapi.ts';
import { DOCS_PATH, OPENAPI_PATH } from './routes.ts';

type Doc = ReturnType<typeof buildOpenApi> & {
  paths: Record<string, { post: Record<string, any> }>;
  components: { schemas: Record<string, unknown> };
};
const doc = buildOpenApi({ cookieName: 'sid', memberCookieName: 'msid' }) as Doc;
const operation = (call: CallDef) => doc.paths[call.path]?.post;

describe('OpenAPI document', () => {
  it('holds every call of the contract, once, with its schemas, auth and error messages', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(allCalls.map((c) => c.path).sort());
    for (const call of allCalls) {
      const op = operation(call);
      expect(op, call.path).toBeDefined();
      expect(op.tags, call.path).not.toContain('其他');
      expect(op.summary, call.path).toBe(call.summary);
      const body = op.requestBody.content['application/json'];
      expect(doc.components.schemas[body.schema.$ref.split('/').pop()], call.path).toBeDefined();
      const answer = op.responses['200'].content['application/json'].schema;
      expect(answer.properties.code).toEqual({ const: 0 });
      expect(doc.components.schemas[answer.properties.data.$ref.split('/').pop()], call.path).toBeDefined();
      const security = { public: [], member: [{ memberCookie: [] }], staff: [{ staffCookie: [] }] };
      expect(op.security, call.path).toEqual(security[call.auth === 'store' ? 'staff' : call.auth]);
      const errors = callErrors(call);
      expect(op['x-errors'], call.path).toEqual(errors);
      for (const e of errors) {
        const response = op.responses[String(e.status)];
        expect(response.description.split('\n'), call.path).toContain(`- ${e.msg}`);
        expect(response.content['application/json'].example.code, call.path).toBe(e.status);
      }
      if (call.auth !== 'public') expect(declaresError(errors, 401, Msg.notLoggedIn), call.path).toBe(true);
      if (call.auth === 'store') expect(declaresError(errors, 403, Msg.forbiddenStore), call.path).toBe(true);
    }
  });

  it('documents the messages the request schemas word themselves', () => {
    const arrange = operation(allCalls.find((c) => c.path.endsWith('/batch/arrange/course'))!);
    const badRequest = arrange['x-errors'].filter((e: CallError) => e.status === 400).map((e: CallError) => e.msg);
    expect(badRequest).toEqual(expect.arrayContaining([Msg.chooseCourse, Msg.studentsNotZero, Msg.arrangeTimesMax]));
  });

  it('gives every call an example that its own zod schema and the document schema accept', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const call of allCalls) {
      expect(call.example, `${call.path} has no example`).toBeDefined();
      const parsed = call.req.safeParse(call.example);
      expect(parsed.error?.issues, call.path).toBeUndefined();
      const body = operation(call).requestBody.content['application/json'];
      expect(body.example).toEqual(call.example);
      const validate = ajv.compile({ $ref: `doc${body.schema.$ref}` });
      expect(validate(call.example) ? null : validate.errors, call.path).toBeNull();
    }
  });

  it('is a valid OpenAPI 3.1 document (and the validator refuses a broken one)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const valid = await new Validator().validate(structuredClone(doc));
    expect(valid.errors).toBeUndefined();
    expect(valid.valid).toBe(true);
    const { info: _info, ...broken } = structuredClone(doc);
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
});

describeEachDb('API reference routes', (env) => {
  it('refuses the document and the page without a staff login', async () => {
    for (const url of [OPENAPI_PATH, DOCS_PATH]) {
      const res = await env().app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ code: 401, data: null, msg: Msg.notLoggedIn });
      const stale = await env().app.inject({ method: 'GET', url, headers: { cookie: 'sid=not-a-session' } });
      expect(stale.statusCode, url).toBe(401);
    }
  });

  it('serves the document and the reference page to logged-in staff', async () => {
    const cookie = env().client.cookie!;
    const json = await env().app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { cookie } });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toContain('application/json');
    const served = json.json() as Doc;
    expect(Object.keys(served.paths)).toHaveLength(allCalls.length);

    const page = await env().app.inject({ method: 'GET', url: DOCS_PATH, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    const styles = [...page.body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
    expect(page.body).not.toMatch(/<script>/);
    expect(scripts).toHaveLength(2);
    for (const url of [...scripts, ...styles]) {
      expect(url.startsWith(`${DOCS_PATH}/`), url).toBe(true);
      const asset = await env().app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.body.length, url).toBeGreaterThan(100);
    }
  });

  it('answers 404 for a file that is not one of the page', async () => {
    for (const file of ['index.html', 'constructor', '..%2Fpackage.json', 'swagger-ui.js.map']) {
      const res = await env().app.inject({ method: 'GET', url: `${DOCS_PATH}/${file}` });
      expect(res.statusCode, file).toBe(404);
      expect(res.json().msg, file).toBe(Msg.notFoundRoute);
    }
  });

  it('opens the reference to anyone when API_DOCS_PUBLIC=1', async () => {
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', API_DOCS_PUBLIC: '1' } as NodeJS.ProcessEnv),
      webDist: '/nonexistent',
    };
    expect(config.apiDocsPublic).toBe(true);
    const app = await buildApp({ config, database: env().database, logger: false });
    try {
      for (const url of [OPENAPI_PATH, DOCS_PATH]) {
        expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      }
      // the calls themselves still need a login
      const me = await new Client(app).call('/api/auth/me');
      expect(me.status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('answers each example, sent as is, with success or an error the document declares for it', async () => {
    const anon = env().anon();
    const undeclared: string[] = [];
    for (const call of allCalls) {
      const client = call.auth === 'public' ? anon : env().client;
      const answer = await client.call(call.path, call.example);
      if (answer.status === 200 && answer.code === 0) continue;
      if (!declaresError(operation(call)['x-errors'], answer.status, answer.msg)) {
        undeclared.push(`${call.path}: ${answer.status} ${answer.msg}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
