import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';

const API = '/store/api';

describeEachDb('store setting', (env) => {
  it('answers the store name, logo link and QR code', async () => {
    const { client, storeId, database } = env();
    const a = await client.ok(`${API}/query/store/setting`, { storeId });
    expect(a).toEqual({ storeName: expect.stringMatching(/^测试门店/), logo: null, storeId, qrCode: null });
    const file = await database.db
      .insertInto('storeFile')
      .values({ storeId, mime: 'image/png', data: Buffer.from([1, 2, 3]), createdAt: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable('store')
      .set({ logoFileId: file.id, qrCode: 'https://example.com/qr.png' })
      .where('id', '=', storeId)
      .execute();
    const b = await client.ok(`${API}/query/store/setting`, {});
    expect(b).toMatchObject({ logo: `/store/files/${file.id}`, qrCode: 'https://example.com/qr.png', storeId });
  });

  it('refuses another store with 403', async () => {
    const { client, other } = env();
    const a = await client.call(`${API}/query/store/setting`, { storeId: other.storeId });
    expect([a.status, a.data]).toEqual([403, null]);
    const b = await client.call(`${API}/query/store/setting`, { storeId: 'x' });
    expect(b.status).toBe(403);
  });
});
