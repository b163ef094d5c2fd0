import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppDeps } from '../src/lib/context.ts';
import { outboxHandlers } from '../src/features/index.ts';
import { startOutboxWorker, type OutboxHandler } from '../src/outbox/index.ts';
import { parseAllowHosts, type AllowedHost } from '../src/lib/outbound.ts';

/** Polls `check` until it answers truthy; fails after `capMs` (a generous cap, not a timing assertion). */
export async function waitFor<T>(check: () => Promise<T>, what: string, capMs = 20_000): Promise<NonNullable<T>> {
  const until = Date.now() + capMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The app's outbox worker (every handler of the app, plus `handlers`) with short intervals, for tests; `allow` as OUTBOUND_ALLOW_HOSTS. */
export function fastWorker(
  app: Pick<AppDeps, 'db' | 'dialect' | 'events'>,
  opts: { handlers?: Record<string, OutboxHandler>; allow?: string } = {},
) {
  return startOutboxWorker({
    db: app.db,
    dialect: app.dialect,
    intervalMs: 10,
    backoffBaseMs: 20,
    backoffCapMs: 200,
    leaseMs: 5_000,
    sendTimeoutMs: 2_000,
    maxAttempts: 1000,
    handlers: { ...outboxHandlers(app.events), ...opts.handlers },
    allowHosts: parseAllowHosts(opts.allow ?? ''),
  });
}

/**
 * Lets the app save the receiver's address as a webhook: the tests' OUTBOUND_ALLOW_HOSTS (the
 * receiver listens on 127.0.0.1, which is refused otherwise). Workers get `allow: receiver.allowHost`.
 */
export function allowReceiver(app: { deps: { config: { outboundAllowHosts: AllowedHost[] } } }, receiver: Receiver) {
  app.deps.config.outboundAllowHosts = parseAllowHosts(receiver.allowHost);
}

/** A WeCom-like webhook receiver on 127.0.0.1: records every JSON body; can answer 500 on demand. */
export class Receiver {
  readonly bodies: unknown[] = [];
  failing = false;
  attempts = 0;
  private server?: http.Server;
  port = 0;

  /** Listens (on the same port as before after a stop, so the stored webhook URL stays valid). */
  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => {
        this.attempts += 1;
        if (this.failing) {
          res.writeHead(500).end('down');
          return;
        }
        this.bodies.push(JSON.parse(data) as unknown);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"errcode":0,"errmsg":"ok"}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port: requests fail with a refused connection. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** The receiver as an OUTBOUND_ALLOW_HOSTS entry (it listens on 127.0.0.1, refused otherwise). */
  get allowHost(): string {
    return `127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/cgi-bin/webhook/send?key=test`;
  }

  /** Text of every markdown or text message received, in arrival order. */
  texts(): string[] {
    return this.bodies.map((b) => {
      const m = b as { markdown?: { content: string }; text?: { content: string } };
      return m.markdown?.content ?? m.text?.content ?? '';
    });
  }
}
