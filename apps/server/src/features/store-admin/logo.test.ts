import { expect, it } from 'vitest';
import { describeEachDbOwnApp, storeIn } from '../../../test/store-admin-support.ts';

const ADD_LOGO = '/store/api/add/logo';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 data')]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

describeEachDbOwnApp('store logo upload and file route', (env) => {
  it('stores a PNG, JPEG or WebP logo and serves it back with its type and safe headers', async () => {
    const { client, storeId } = await storeIn(env());
    for (const [mime, bytes] of [
      ['image/png', PNG],
      ['image/jpeg', JPEG],
      ['image/webp', WEBP],
    ] as const) {
      const { logo } = await client.ok<{ logo: string }>(ADD_LOGO, { image: dataUrl(mime, bytes) });
      expect(logo).toMatch(/^\/store\/files\/\d+$/);
      const store = await env()
        .database.db.selectFrom('store')
        .select('logoFileId')
        .where('id', '=', storeId)
        .executeTakeFirstOrThrow();
      expect(logo).toBe(`/store/files/${store.logoFileId}`);
      const res = await env().app.inject({ method: 'GET', url: logo, headers: { cookie: client.cookie! } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(mime);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('replaces the previous logo and deletes its file', async () => {
    const { client, storeId } = await storeIn(env());
    const first = await client.ok<{ logo: string }>(ADD_LOGO, { image: dataUrl('image/png', PNG) });
    const second = await client.ok<{ logo: string }>(ADD_LOGO, { image: dataUrl('image/png', PNG) });
    expect(second.logo).not.toBe(first.logo);
    const files = await env().database.db.selectFrom('storeFile').select('id').where('storeId', '=', storeId).execute();
    expect(files.map((f) => `/store/files/${f.id}`)).toEqual([second.logo]);
    const old = await env().app.inject({ method: 'GET', url: first.logo, headers: { cookie: client.cookie! } });
    expect(old.statusCode).toBe(404);
  });

  it('keeps exactly one logo file when uploads race', async () => {
    const { client, storeId } = await storeIn(env());
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => client.call(ADD_LOGO, { image: dataUrl('image/png', PNG) })),
    );
    expect(answers.map((a) => a.code)).toEqual([0, 0, 0, 0, 0, 0]);
    const db = env().database.db;
    const files = await db.selectFrom('storeFile').select('id').where('storeId', '=', storeId).execute();
    const store = await db.selectFrom('store').select('logoFileId').where('id', '=', storeId).executeTakeFirstOrThrow();
    expect(files.map((f) => f.id)).toEqual([store.logoFileId]);
  });

  it('stores the sniffed type, not the declared one', async () => {
    const { client } = await storeIn(env());
    const { logo } = await client.ok<{ logo: string }>(ADD_LOGO, { image: dataUrl('image/png', JPEG) });
    const res = await env().app.inject({ method: 'GET', url: logo, headers: { cookie: client.cookie! } });
    expect(res.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a GIF, a text file disguised as PNG, other types, broken base64 and oversized images', async () => {
    const { client, storeId } = await storeIn(env());
    const cases: [unknown, string][] = [
      [{ image: dataUrl('image/png', GIF) }, '仅支持 PNG、JPEG 或 WebP 格式的图片'],
      [{ image: dataUrl('image/gif', GIF) }, '仅支持 PNG、JPEG 或 WebP 格式的图片'],
      [
        { image: dataUrl('image/png', Buffer.from('<svg onload="alert(1)"></svg>')) },
        '仅支持 PNG、JPEG 或 WebP 格式的图片',
      ],
      [{ image: dataUrl('image/svg+xml', Buffer.from('<svg/>')) }, '仅支持 PNG、JPEG 或 WebP 格式的图片'],
      [{ image: dataUrl('text/plain', PNG) }, '仅支持 PNG、JPEG 或 WebP 格式的图片'],
      [{ image: 'data:image/png;base64,iVBORw0K%%%GgoAAAANSUhEUg==' }, '图片内容不是有效的 base64 编码'],
      [{ image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEU' }, '图片内容不是有效的 base64 编码'],
      [{ image: 'data:image/png;base64,' }, '图片内容为空'],
      // Raw PNG bytes hold U+0000, which the app refuses in any request text before the call sees it.
      [{ image: `data:image/png,${PNG.toString('latin1')}` }, '请求内容包含无效字符'],
      [{ image: PNG.toString('base64') }, '图片应为 data:image/...;base64, 格式'],
      [{ image: '' }, '请上传图片'],
      [{}, '请上传图片'],
      [{ image: 123 }, '请上传图片'],
      [{ image: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])) }, '图片不能超过1MB'],
    ];
    for (const [body, msg] of cases) {
      const a = await client.call(ADD_LOGO, body);
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
    const tooBig = await client.call(ADD_LOGO, { image: dataUrl('image/png', Buffer.alloc(1.2 * 1024 * 1024)) });
    expect(tooBig.status).toBe(413);
    const files = await env().database.db.selectFrom('storeFile').select('id').where('storeId', '=', storeId).execute();
    expect(files).toEqual([]);
  });

  it('accepts an image of exactly 1 MiB', async () => {
    const { client } = await storeIn(env());
    const bytes = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 - PNG.length)]);
    expect((await client.call(ADD_LOGO, { image: dataUrl('image/png', bytes) })).code).toBe(0);
  });

  it("answers 404 for another store's logo, an unknown or malformed id, and 401 without a session", async () => {
    const mine = await storeIn(env());
    const other = await storeIn(env(), '另一门店');
    const { logo } = await other.client.ok<{ logo: string }>(ADD_LOGO, { image: dataUrl('image/png', PNG) });
    const get = (url: string, cookie?: string) =>
      env().app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    const foreign = await get(logo, mine.client.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().msg).toBe('文件不存在');
    for (const url of ['/store/files/999999', '/store/files/abc', '/store/files/0', '/store/files/99999999999']) {
      expect((await get(url, mine.client.cookie)).statusCode).toBe(404);
    }
    const anon = await get(logo);
    expect(anon.statusCode).toBe(401);
    expect(anon.json().msg).toBe('请先登录');
    expect((await get(logo, other.client.cookie)).statusCode).toBe(200);
  });

  it('answers 401 for the upload without a session', async () => {
    const a = await env()
      .anon()
      .call(ADD_LOGO, { image: dataUrl('image/png', PNG) });
    expect(a.status).toBe(401);
  });
});
