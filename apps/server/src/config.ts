import path from 'node:path';
import { z } from 'zod';
import { parseAllowHosts, type AllowedHost } from './lib/outbound.ts';

const zEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_PASSWORD: z.string().min(6, 'ADMIN_PASSWORD 至少 6 位').optional(),
  /** Days the audit log keeps its entries; 0 (the default) keeps them all. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(0),
  /** Passwords of the demo store's front-desk (`desk`) and teacher (`teacher`) accounts; generated when unset. */
  DESK_PASSWORD: z.string().min(8, 'DESK_PASSWORD 至少 8 位').optional(),
  TEACHER_PASSWORD: z.string().min(8, 'TEACHER_PASSWORD 至少 8 位').optional(),
  /** `empty` starts without the demo store (a first-run screen creates the store and its admin). */
  SEED: z.enum(['demo', 'empty']).default('demo'),
  /** Set when served behind HTTPS: the session cookie becomes Secure and `__Host-` prefixed. */
  COOKIE_SECURE: z.enum(['0', '1']).default('0'),
  /** Set behind a reverse proxy: client addresses (login limits) are read from X-Forwarded-For. */
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  /**
   * Origins besides the server's own (its Host header) whose pages may send writes, comma-separated,
   * e.g. `https://admin.example.com` when a proxy serves the pages under another name.
   */
  ALLOWED_ORIGINS: z.string().default(''),
  /**
   * Hosts the server may send requests to although they are internal addresses, comma-separated
   * `host` or `host:port` (e.g. `127.0.0.1:3999`, a robot relay on the LAN); empty: none.
   */
  OUTBOUND_ALLOW_HOSTS: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** The members' phone page's build (served at /m/). */
  MEMBER_DIST: z.string().optional(),
  /** `1`: the API reference (/api/docs, /api/openapi.json) is open to anyone, not only logged-in staff. */
  API_DOCS_PUBLIC: z.enum(['0', '1']).default('0'),
  /** Pool size per app instance on PostgreSQL. */
  PG_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  /** A request's headers must arrive within this (ms); a client dribbling them is cut. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** The whole request (headers and body) must arrive within this (ms). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** A socket with no traffic either way for this long is closed (ms); above the longest answer. */
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  /** `0` when a reverse proxy compresses: no precompressed assets, no compressed JSON answers. */
  COMPRESS: z.enum(['0', '1']).default('1'),
  /** `0` recomputes every calendar answer (the benchmark's baseline; the cache is always right). */
  CALENDAR_CACHE: z.enum(['0', '1']).default('1'),
  /** Bearer token that opens GET /metrics to other machines (always open on loopback); empty: loopback only. */
  METRICS_TOKEN: z.string().default(''),
  /**
   * The CJK font the signed contracts' PDFs are set in (a .ttc with `CONTRACT_FONT_NAME` in it, or a
   * .ttf/.otf); Debian's fonts-noto-cjk by default.
   */
  CONTRACT_FONT: z.string().default('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'),
  /** The font's PostScript name inside a collection (.ttc). */
  CONTRACT_FONT_NAME: z.string().default('NotoSansCJKsc-Regular'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminPassword?: string;
  /** Days 操作日志 keeps entries; 0 keeps all. */
  auditRetentionDays: number;
  deskPassword?: string;
  teacherPassword?: string;
  seed: 'demo' | 'empty';
  cookieSecure: boolean;
  trustProxy: boolean;
  allowedOrigins: string[];
  outboundAllowHosts: AllowedHost[];
  logLevel: string;
  webDist: string;
  memberDist: string;
  pgPoolMax: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  apiDocsPublic: boolean;
  compress: boolean;
  calendarCache: boolean;
  /** GET /metrics answers a request with `Authorization: Bearer <metricsToken>` from anywhere. */
  metricsToken?: string;
  /** The signed contracts' PDF font: a file and, for a collection, the font's PostScript name. */
  contractFont: { path: string; name: string };
}

/** Reads the environment once; throws a readable message on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = zEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`配置错误:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    adminPassword: e.ADMIN_PASSWORD,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    deskPassword: e.DESK_PASSWORD,
    teacherPassword: e.TEACHER_PASSWORD,
    seed: e.SEED,
    cookieSecure: e.COOKIE_SECURE === '1',
    trustProxy: e.TRUST_PROXY === '1',
    allowedOrigins: listOf(e.ALLOWED_ORIGINS).map(originOf),
    outboundAllowHosts: parseAllowHosts(e.OUTBOUND_ALLOW_HOSTS),
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    memberDist: path.resolve(e.MEMBER_DIST ?? new URL('../../member/dist', import.meta.url).pathname),
    pgPoolMax: e.PG_POOL_MAX,
    // Node requires headersTimeout <= requestTimeout.
    headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: e.CONNECTION_TIMEOUT_MS,
    apiDocsPublic: e.API_DOCS_PUBLIC === '1',
    compress: e.COMPRESS === '1',
    calendarCache: e.CALENDAR_CACHE === '1',
    metricsToken: e.METRICS_TOKEN.trim() || undefined,
    contractFont: { path: e.CONTRACT_FONT, name: e.CONTRACT_FONT_NAME },
  };
}

const listOf = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** `scheme://host[:port]` of an ALLOWED_ORIGINS entry; a readable error otherwise. */
function originOf(entry: string): string {
  try {
    const u = new URL(entry);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
  } catch {
    // reported below
  }
  throw new Error(`配置错误:\nALLOWED_ORIGINS: ${entry} 不是 http(s)://主机[:端口] 形式的来源`);
}
