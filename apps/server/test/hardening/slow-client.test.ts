// A client sending its request one byte at a time is cut (408 with an envelope) once the request
// time-out passes, while the server keeps answering everyone else. The time-outs are configurable;
// this test uses 1.5 s so it stays short (defaults: headers 10 s, whole request 20 s).
import net from 'node:net';
import { Msg } from '@studio/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { freshDatabase, type App } from '../harness.ts';

const BODY = JSON.stringify({ account: 'nobody-at-all', password: 'x'.repeat(150) });

interface Dribble {
  /** Everything the server wrote back before closing. */
  answer: string;
  /** Bytes of the request sent before the server closed the connection. */
  sent: number;
  total: number;
}

/** Opens a raw socket and sends `request` one byte every `everyMs` until done or cut. */
function dribble(port: number, request: string, everyMs: number, meanwhile: () => Promise<void>): Promise<Dribble> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(request);
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (answer += d.toString('utf8')));
    socket.on('error', () => {}); // a reset after the 408 is expected
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, sent, total: bytes.length });
    });
    socket.on('connect', () => {
      timer = setInterval(() => {
        if (sent >= bytes.length || socket.destroyed) return clearInterval(timer);
        socket.write(bytes.subarray(sent, sent + 1));
        sent += 1;
        if (sent === 5) meanwhile().catch(reject);
      }, everyMs);
    });
  });
}

describe('slow clients are cut by the request time-outs [sqlite]', () => {
  let app: App;
  let drop: () => Promise<void>;
  let port: number;

  beforeAll(async () => {
    const database = await freshDatabase('sqlite');
    drop = async () => {
      await database.close();
      await database.drop();
    };
    const config = {
      ...loadConfig({
        LOG_LEVEL: 'silent',
        REQUEST_TIMEOUT_MS: '1500',
        HEADERS_TIMEOUT_MS: '1500',
      } as NodeJS.ProcessEnv),
      webDist: '/nonexistent',
    };
    app = await buildApp({ config, database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  it('takes its time-outs from the configuration, with the documented defaults', () => {
    const dflt = loadConfig({} as NodeJS.ProcessEnv);
    expect([dflt.headersTimeoutMs, dflt.requestTimeoutMs, dflt.connectionTimeoutMs]).toEqual([10_000, 20_000, 300_000]);
    expect(app.server.requestTimeout).toBe(1500);
    expect(app.server.headersTimeout).toBe(1500);
  });

  const others: { code: number; status: number }[] = [];
  const askOthers = async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/setup/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      others.push({ status: res.status, code: ((await res.json()) as { code: number }).code });
    }
  };

  it('a body sent one byte at a time: 408 请求超时 before it is complete; others answered meanwhile', async () => {
    others.length = 0;
    const head =
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(BODY)}\r\n\r\n`;
    // One byte per 100 ms: the whole request would take about 25 s.
    const r = await dribble(port, head + BODY, 100, askOthers);
    expect(r.sent).toBeLessThan(r.total);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(r.answer.slice(r.answer.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 408,
      data: null,
      msg: Msg.requestTimeout,
    });
    expect(others).toEqual(Array.from({ length: 5 }, () => ({ status: 200, code: 0 })));
  });

  it('headers sent one byte at a time: cut the same way', async () => {
    others.length = 0;
    const r = await dribble(
      port,
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Pad: a\r\n'.repeat(20)}\r\n`,
      50,
      askOthers,
    );
    expect(r.sent).toBeLessThan(r.total);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(others).toHaveLength(5);
    expect(others.every((o) => o.code === 0)).toBe(true);
  });
});
