import fs from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { allCalls, Msg, type CallDef } from '@studio/contract';
import helmet from 'helmet';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { registerApiDocs } from './api-docs/routes.ts';
import { registerOps } from './ops/index.ts';
import { cookieName, SessionStore } from './auth/sessions.ts';
import type { Config } from './config.ts';
import type { DbHandle } from './db/index.ts';
import { features } from './features/index.ts';
import { memberCookieName, registerMemberPages, resolveMember } from './features/member-channel/routes.ts';
import { registerMyDataRoute } from './features/privacy/routes.ts';
import { registerStoreFileRoute } from './features/store-admin/routes.ts';
import { registerCalendarFeedRoute } from './features/calendar-feed/routes.ts';
import { registerExportRoute } from './features/import-export/routes.ts';
import { registerPayNotifyRoutes } from './features/payment/public.ts';
import { registerSmsUplinkRoute } from './features/marketing/public.ts';
import type { AppDeps, CallCtx } from './lib/context.ts';
import { databaseUnavailable } from './lib/db-errors.ts';
import { AppError, badRequest, forbidden, unauthorized } from './lib/errors.ts';
import { scopedDb } from './lib/audit.ts';
import { inWriteTx } from './lib/write-queue.ts';
import { auditedCall, auditMetaOf, auditScopeFor } from './features/audit/scope.ts';
import { answerFor, answersMobiles, masksMobilesFor } from './features/privacy/masking.ts';
import { requireOwnSession } from './features/staff/access.ts';
import { Events } from './lib/events.ts';
import type { Handler } from './lib/feature.ts';
import { registerJsonCompression, sendRawJson } from './lib/compression.ts';
import { originGuard } from './lib/origin.ts';
import { RawJson } from './lib/raw-json.ts';
import { resolveStore, storeScopeById } from './lib/store-scope.ts';
import { webAssetOptions } from './lib/web-assets.ts';

export interface BuildOptions {
  config: Config;
  database: DbHandle;
  /** Check every answer against the contract's answer schema (tests turn this on). */
  validateResponses?: boolean;
  logger?: boolean;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;
// /member/api and /member/files belong to the members' channel; /member/list and /member/detail are screens.
const API_PREFIXES = ['/store/', '/api/', '/member/api/', '/member/files/'];

/**
 * Errors Node raises before a request reaches Fastify (a slow client cut by requestTimeout or
 * headersTimeout, oversized headers, broken HTTP): answered with an envelope, then the socket closes.
 */
function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, msg] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', Msg.requestTimeout]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', Msg.tooLarge]
        : [400, 'Bad Request', Msg.badRequest];
  const body = JSON.stringify({ code: status, data: null, msg });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

function envelopeError(reply: FastifyReply, status: number, msg: string, code = status, data: unknown = null) {
  return reply.status(status).send({ code, data, msg });
}

/** Whether any string or key inside a parsed body holds U+0000. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000') || hasNul(v, depth + 1)) return true;
  }
  return false;
}

/** Builds the Fastify app: plugins, error handler, then every call of the contract. */
export type AppInstance = FastifyInstance & { deps: AppDeps };

export async function buildApp(opts: BuildOptions): Promise<AppInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel, redact: ['req.headers.cookie'] },
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // Slow clients (one byte at a time) are cut: headers within headersTimeout, the whole request
    // within requestTimeout, checked every second; an idle socket is closed after connectionTimeout.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    clientErrorHandler,
    // A request that reaches a closing app (on a kept-alive connection) is served, not refused with
    // Fastify's own 503 body: the graceful stop (main.ts) closes each connection after its answer.
    return503OnClosing: false,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  });

  const deps: AppDeps = {
    db: database.db,
    dialect: database.dialect,
    config,
    log: app.log,
    sessions: new SessionStore(database.db),
    events: new Events(),
  };

  // Security headers. The middleware is built once: @fastify/helmet builds it again for every
  // request, a few percent of a booking's CPU (bench/booking.ts).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.cookieSecure,
  });
  app.addHook('onRequest', (req, reply, done) => securityHeaders(req.raw, reply.raw, () => done()));
  await app.register(cookie);
  if (config.compress) registerJsonCompression(app);
  await app.register(formbody, { bodyLimit: DEFAULT_BODY_LIMIT });
  // /healthz, /readyz, /metrics (GETs outside the contract) and the metrics' response hook.
  registerOps(app, { database, metricsToken: config.metricsToken, events: deps.events });

  // Same-site forgery: a write whose Origin (or Referer) is another site's is refused before its body is read.
  app.addHook('onRequest', originGuard(config.allowedOrigins));

  // JSON bodies: an empty body is `{}`; a broken one is a 400 with a Chinese message.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(badRequest(Msg.badJson), undefined);
    }
    // PostgreSQL text cannot hold U+0000: refuse it here, once, for every call.
    if (text.includes('\\u0000') && hasNul(parsed)) return done(badRequest(Msg.nulCharacter), undefined);
    done(null, parsed);
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) return envelopeError(reply, err.status, err.message, err.code, err.data);
    if (err instanceof ZodError) return envelopeError(reply, 400, err.issues[0]?.message ?? Msg.badRequest);
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return envelopeError(reply, 413, Msg.tooLarge);
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return envelopeError(reply, 415, Msg.unsupportedMedia);
    if (e.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return envelopeError(reply, 400, Msg.badRequest);
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return envelopeError(reply, e.statusCode, Msg.badRequest);
    }
    const unavailable = databaseUnavailable(err);
    if (unavailable) {
      req.log.warn({ err, reqId: req.id }, 'database unavailable');
      return envelopeError(reply, unavailable.status, unavailable.message, unavailable.code);
    }
    req.log.error({ err, reqId: req.id }, 'unexpected error');
    return envelopeError(reply, 500, Msg.internal);
  });

  const handlers = new Map<string, Handler<CallDef>>();
  const inTx = new Set<string>();
  for (const feature of features) {
    feature({
      handle(call, handler, o) {
        if (handlers.has(call.path)) throw new Error(`重复的接口处理: ${call.path}`);
        handlers.set(call.path, handler as Handler<CallDef>);
        if (o?.tx) inTx.add(call.path);
      },
      on: (kind, listener, stage) => deps.events.on(kind, listener, stage),
    });
  }
  const cookieKey = cookieName(config.cookieSecure);
  const memberCookieKey = memberCookieName(config.cookieSecure);
  for (const call of allCalls) {
    if (call.auth === 'store' && !call.roles?.length) throw new Error(`接口没有声明角色: ${call.path}`);
    const auditMeta = auditMetaOf(call);
    const hasMobiles = call.auth === 'store' && answersMobiles(call);
    const own = handlers.get(call.path);
    if (!own) throw new Error(`接口没有实现: ${call.path}`);
    // A handler of plain statements runs in one write transaction with its audit entry.
    const handler: Handler<CallDef> = inTx.has(call.path)
      ? (input, ctx) => inWriteTx(ctx.db, ctx.dialect, (tx) => own(input, { ...ctx, db: tx }))
      : own;
    handlers.delete(call.path);
    app.post(call.path, { bodyLimit: call.bodyLimit ?? DEFAULT_BODY_LIMIT }, async (req, reply) => {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const typeOk =
        type === 'application/json' || (call.form === true && type === 'application/x-www-form-urlencoded');
      if (!typeOk && !(type === '' && call.auth === 'public')) {
        throw new AppError(415, Msg.unsupportedMedia);
      }
      if (type === 'application/x-www-form-urlencoded' && hasNul(req.body)) throw badRequest(Msg.nulCharacter);
      const ctx = { ...deps, req, reply } as CallCtx;
      if (call.auth === 'member') {
        // The members' channel: only a member session counts (a staff cookie is never one).
        const who = await resolveMember(deps.db, req.cookies[memberCookieKey]);
        const store = who && (await storeScopeById(deps.db, who.storeId));
        if (!who || !store) throw unauthorized();
        ctx.member = who.member;
        ctx.memberSessionId = who.sessionId;
        ctx.store = store;
      } else if (call.auth !== 'public' || req.cookies[cookieKey]) {
        const staff = await deps.sessions.resolve(req.cookies[cookieKey]);
        if (staff) ctx.staff = staff;
        else if (call.auth !== 'public') {
          // A disabled staff member's page is told why it was logged out.
          const disabled = await deps.sessions.disabled(req.cookies[cookieKey]);
          throw unauthorized(disabled ? Msg.staffDisabled : Msg.notLoggedIn);
        }
      }
      if (call.auth === 'store') {
        const { scope, post } = await resolveStore(deps.db, ctx.staff, req, req.body);
        ctx.store = scope;
        ctx.post = post;
        // Roles, declared by the call in the contract, before anything is read or written.
        if (!call.roles?.includes(post.role)) throw forbidden(Msg.forbiddenRole);
      }
      const input = call.req.parse(req.body ?? {});
      if (call.auth === 'store' && ctx.post.role === 'teacher' && call.teacherOwns) {
        await requireOwnSession(deps.db, ctx.store.id, ctx.post.teacherId, call.teacherOwns, input);
      }
      const scope = auditMeta && auditScopeFor(auditMeta, ctx, input);
      // A write call's services reach the database through a handle carrying its audit scope.
      if (scope) ctx.db = scopedDb(deps.db, scope);
      const whole = scope ? await auditedCall(ctx, scope, input, handler) : await handler(input, ctx);
      // Members' mobiles masked for the roles that do not need them (features/privacy/masking.ts).
      const answer = hasMobiles && masksMobilesFor(call, ctx.post?.role) ? answerFor(whole) : whole;
      const data = answer instanceof RawJson ? answer.value : answer;
      if (opts.validateResponses) {
        const checked = call.res.safeParse(data);
        if (!checked.success) {
          req.log.error({ path: call.path, issues: checked.error.issues }, 'answer does not match contract');
          throw new Error(`answer of ${call.path} does not match the contract: ${checked.error.message}`);
        }
      }
      if (answer instanceof RawJson) return sendRawJson(req, reply, answer, config.compress);
      return { code: 0, data: data ?? null, msg: '' };
    });
  }
  if (handlers.size) throw new Error(`处理程序没有对应的接口: ${[...handlers.keys()].join(', ')}`);
  registerStoreFileRoute(app, deps);
  registerCalendarFeedRoute(app, deps);
  registerExportRoute(app, deps);
  registerMyDataRoute(app, deps);
  await registerPayNotifyRoutes(app, deps);
  await registerSmsUplinkRoute(app, deps);
  registerMemberPages(app, deps);
  registerApiDocs(app, deps);

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, webAssetOptions(config.webDist, config.compress));
  }
  // The members' phone page at /m/ (its own build): its files, and its index.html for /m/ itself.
  const memberIndex = path.join(config.memberDist, 'index.html');
  const hasMember = fs.existsSync(memberIndex);
  if (hasMember) {
    await app.register(fastifyStatic, {
      ...webAssetOptions(config.memberDist, config.compress),
      prefix: '/m/',
      decorateReply: !hasWeb,
    });
  }
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url.split('?')[0];
    if (hasMember && req.method === 'GET' && (url === '/m' || (url.startsWith('/m/') && !path.extname(url)))) {
      if (url === '/m') return reply.redirect(`/m/${req.url.slice(2)}`);
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.readFileSync(memberIndex));
    }
    if (API_PREFIXES.some((p) => url.startsWith(p)) || req.method !== 'GET' || !hasWeb) {
      return envelopeError(reply, 404, Msg.notFoundRoute);
    }
    if (path.extname(url)) return envelopeError(reply, 404, Msg.notFoundRoute);
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });

  return Object.assign(app, { deps }) as unknown as AppInstance;
}
