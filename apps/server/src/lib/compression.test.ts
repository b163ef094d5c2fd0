import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { queryTimetableByDate, teacherList } from '@studio/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../../scripts/precompress.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { EngineFactory, FUTURE } from '../../test/factory-engine.ts';
import { describeEachDb, describeEachDbWith, type App } from '../../test/harness.ts';
import { acceptedEncoding, JSON_COMPRESS_MIN_BYTES } from './compression.ts';
import { DOCUMENT_ONLY_HEADERS } from './web-assets.ts';

const decode = (encoding: string | undefined, body: Buffer): Buffer =>
  encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;

describe('Accept-Encoding negotiation', () => {
  it('prefers brotli, honours q-values and refuses what is not offered', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('gzip;q=1, br;q=0.2')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding('*;q=0')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});

describeEachDb('JSON answers compressed above 1 KB', (env) => {
  const post = (url: string, body: unknown, encoding?: string) =>
    env().app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        cookie: env().client.cookie!,
        ...(encoding ? { 'accept-encoding': encoding } : {}),
      },
      payload: JSON.stringify(body),
    });

  it('a list above 1 KB goes out brotli or gzip as accepted, the same JSON after decoding', async () => {
    for (let i = 0; i < 40; i++) await env().factory.teacher({ name: `压缩测试老师${i}` });
    const plain = await post(teacherList.path, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(JSON_COMPRESS_MIN_BYTES);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await post(teacherList.path, {}, encoding === 'br' ? 'gzip, deflate, br' : 'gzip');
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decode(encoding, res.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });

  it('an answer below 1 KB goes out as it is, whatever the client accepts', async () => {
    const res = await post(queryTimetableByDate.path, { fromDate: '2099-01-05', toDate: '2099-01-11' }, 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(JSON_COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ code: 0, data: [], msg: '' });
  });

  it('the cached calendar week: compressed, equal to the plain answer, and new after a write', async () => {
    const e = new EngineFactory(env().factory);
    const { teacher, course } = await e.scene();
    for (let h = 6; h < 22; h++) {
      await e.session({
        courseId: course.id,
        teacherId: teacher.id,
        startTime: `${FUTURE} ${String(h).padStart(2, '0')}:00:00`,
      });
    }
    const week = { fromDate: FUTURE, toDate: FUTURE };
    const plain = await post(queryTimetableByDate.path, week);
    expect(plain.rawPayload.length).toBeGreaterThan(JSON_COMPRESS_MIN_BYTES);
    const first = await post(queryTimetableByDate.path, week, 'br');
    const again = await post(queryTimetableByDate.path, week, 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(decode('br', first.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const gz = await post(queryTimetableByDate.path, week, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode('gzip', gz.rawPayload).equals(plain.rawPayload)).toBe(true);

    await e.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} 22:30:00` });
    const after = await post(queryTimetableByDate.path, week, 'br');
    const days = JSON.parse(decode('br', after.rawPayload).toString()) as { data: { list: unknown[] }[] };
    expect(days.data[0].list).toHaveLength(17);
  });
});

/** A built web app in a temporary folder, precompressed as the build does it. */
async function fakeWebDist(): Promise<{ dir: string; js: Buffer; css: Buffer; html: Buffer }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const js = Buffer.from(Array.from({ length: 300 }, (_, i) => `export const v${i} = '课程表 ${i}';`).join('\n'));
  const css = Buffer.from('.a{color:red}');
  const html = Buffer.from(
    `<!doctype html><html><head><title>团课</title></head><body>${'<div></div>'.repeat(200)}</body></html>`,
  );
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js'), js);
  fs.writeFileSync(path.join(dir, 'assets/small-abc123.css'), css);
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  await precompressDir(dir);
  return { dir, js, css, html };
}

describeEachDbWith(
  'web assets precompressed and served by Accept-Encoding',
  async (base) => {
    const web = await fakeWebDist();
    const make = (compress: boolean) =>
      buildApp({
        config: { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: web.dir, compress },
        database: base.database,
        logger: false,
      });
    return { ...base, web, served: await make(true), uncompressed: await make(false) };
  },
  (env) => {
    afterAll(async () => {
      await env().served.close();
      await env().uncompressed.close();
      fs.rmSync(env().web.dir, { recursive: true, force: true });
    });
    const get = (app: App, url: string, encoding?: string) =>
      app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

    it('a hashed script: brotli, gzip or as it is, the same bytes after decoding, immutable', async () => {
      const { served, web } = env();
      expect(fs.existsSync(path.join(web.dir, 'assets/index-abc123.js.br'))).toBe(true);
      expect(fs.existsSync(path.join(web.dir, 'assets/index-abc123.js.gz'))).toBe(true);
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['', undefined],
      ] as const) {
        const res = await get(served, '/assets/index-abc123.js', accept || undefined);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        // What a script obeys stays; what only a page obeys goes.
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        for (const h of DOCUMENT_ONLY_HEADERS) expect(res.headers[h]).toBeUndefined();
        if (encoding) expect(res.rawPayload.length).toBeLessThan(web.js.length);
        expect(decode(encoding, res.rawPayload).equals(web.js)).toBe(true);
      }
    });

    it('a file under 1 KB has no compressed copy and goes out as it is', async () => {
      const { served, web } = env();
      expect(fs.existsSync(path.join(web.dir, 'assets/small-abc123.css.br'))).toBe(false);
      const res = await get(served, '/assets/small-abc123.css', 'br, gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^text\/css/);
      expect(res.rawPayload.equals(web.css)).toBe(true);
    });

    it('the page of a screen is index.html, compressed and revalidated on every load', async () => {
      const { served, web } = env();
      const res = await get(served, '/course/calendar', 'br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      // The page keeps every security header.
      for (const h of DOCUMENT_ONLY_HEADERS) expect(res.headers[h]).toBeDefined();
      expect(decode('br', res.rawPayload).equals(web.html)).toBe(true);
    });

    it('with COMPRESS=0 everything goes out as it is', async () => {
      const { uncompressed, web } = env();
      const res = await get(uncompressed, '/assets/index-abc123.js', 'br, gzip');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(web.js)).toBe(true);
    });
  },
);
