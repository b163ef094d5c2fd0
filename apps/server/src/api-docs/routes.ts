// The API reference: /api/openapi.json (the document) and /api/docs (Swagger UI from the
// swagger-ui-dist package, served from this app so it works offline under the app's CSP:
// script-src 'self', no inline script). Logged-in staff only, unless API_DOCS_PUBLIC=1.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cookieName } from '../auth/sessions.ts';
import { memberCookieName } from '../features/member-channel/routes.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../lib/context.ts';
import { unauthorized } from '../lib/errors.ts';
import { buildOpenApi } from './openapi.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

const UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The two files of swagger-ui-dist the page loads (the bundle carries its presets). */
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="utf-8" />
    <title>接口文档 · 团课工作室后台</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/start.js"></script>
  </body>
</html>
`;

/**
 * Starts Swagger UI on the document; no outside validator badge (the page must work offline). The
 * groups open one at a time (docExpansion 'none'): Swagger UI 5 stopped rendering the whole list of
 * calls once it passed about 130 operations (found when the staff calls made 135).
 */
const START = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#api-reference',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: -1,
  displayOperationId: true,
  filter: true,
  validatorUrl: null,
});
`;

const documents = new Map<boolean, string>();
/**
 * The text of /api/openapi.json as this app serves it (built once per cookie naming). The suites
 * check every answer against it (test/documented-answers.ts).
 */
export function publishedDocument(config: Pick<Config, 'cookieSecure'>): string {
  let document = documents.get(config.cookieSecure);
  if (document === undefined) {
    document = JSON.stringify(
      buildOpenApi({
        cookieName: cookieName(config.cookieSecure),
        memberCookieName: memberCookieName(config.cookieSecure),
      }),
    );
    documents.set(config.cookieSecure, document);
  }
  return document;
}

/** Registers the API reference routes (GET, outside the contract's POST calls). */
export function registerApiDocs(app: FastifyInstance, deps: AppDeps): void {
  const key = cookieName(deps.config.cookieSecure);
  const requireStaff = async (req: FastifyRequest) => {
    if (deps.config.apiDocsPublic) return;
    if (!(await deps.sessions.resolve(req.cookies[key]))) throw unauthorized();
  };

  app.get(OPENAPI_PATH, async (req, reply) => {
    await requireStaff(req);
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(publishedDocument(deps.config));
  });
  app.get(DOCS_PATH, async (req, reply) => {
    await requireStaff(req);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE);
  });
  app.get(`${DOCS_PATH}/start.js`, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(START),
  );
  // The package's own files: public code with nothing of the store in them.
  app.get<{ Params: { file: string } }>(`${DOCS_PATH}/:file`, async (req, reply) => {
    if (!Object.hasOwn(UI_FILES, req.params.file)) return reply.callNotFound();
    const type = UI_FILES[req.params.file];
    return reply
      .type(type)
      .header('cache-control', 'public, max-age=86400')
      .send(fs.createReadStream(path.join(UI_DIR, req.params.file)));
  });
}
