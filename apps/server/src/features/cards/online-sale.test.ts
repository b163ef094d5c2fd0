// Selling online visibly works or visibly does not (issue 42, item 11): a product is saved as 线上售卖
// only when members could buy it (a balance, a validity, an online price), on insert and update,
// with a 400 naming the field and nothing written; WeChat Pay's 商户号 and AppID are checked when
// saved. Through the real calls, on SQLite and PostgreSQL.
import {
  cardProductList,
  insertCardProduct,
  OnlineSaleMsg,
  PayIdMsg,
  queryPaySetting,
  updateCardProduct,
  updatePaySetting,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('线上售卖 only for products members can buy', (env) => {
  const api = () => env().client;
  const base = {
    bigType: 1,
    cardType: 1,
    perCount: 1,
    price: 50000,
    courseIds: [],
  };
  const productNames = async () =>
    ((await api().ok(cardProductList.path, {})) as { cardName: string }[]).map((p) => p.cardName);

  it('refuses to save a product 线上售卖 without a balance, a validity or an online price, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ cardName: '无次数', validDays: 30, onlinePrice: 100 }, OnlineSaleMsg.totalCount(1)],
      [{ cardName: '无金额', bigType: 2, totalCount: 0, validDays: 30, onlinePrice: 100 }, OnlineSaleMsg.totalCount(2)],
      [{ cardName: '无有效期', totalCount: 10, onlinePrice: 100 }, OnlineSaleMsg.validDays],
      [{ cardName: '无线上价', totalCount: 10, validDays: 30 }, OnlineSaleMsg.onlinePrice],
      [{ cardName: '零线上价', totalCount: 10, validDays: 30, onlinePrice: 0 }, OnlineSaleMsg.onlinePrice],
    ];
    for (const [fields, msg] of cases) {
      const a = await api().call(insertCardProduct.path, { ...base, onlineSale: 1, ...fields });
      expect({ name: fields.cardName, status: a.status, msg: a.msg }).toEqual({
        name: fields.cardName,
        status: 400,
        msg,
      });
    }
    const names = await productNames();
    for (const [fields] of cases) expect(names).not.toContain(fields.cardName);
    // A product members can buy is saved; one that never expires needs no valid days.
    await api().ok(insertCardProduct.path, {
      ...base,
      cardName: '线上月卡',
      totalCount: 30,
      validDays: 30,
      onlineSale: 1,
      onlinePrice: 29900,
    });
    await api().ok(insertCardProduct.path, {
      ...base,
      cardName: '线上永久卡',
      cardType: 2,
      totalCount: 10,
      onlineSale: 1,
      onlinePrice: 100,
    });
    // Not sold online: nothing more is asked.
    await api().ok(insertCardProduct.path, { ...base, cardName: '线下卡' });
    expect(await productNames()).toEqual(expect.arrayContaining(['线上月卡', '线上永久卡', '线下卡']));
  });

  it('refuses an update that would leave a product 线上售卖 that members cannot buy', async () => {
    const { id } = await api().ok<{ id: number }>(insertCardProduct.path, { ...base, cardName: '待上架' });
    // Put on sale without a balance: refused, the product stays off sale.
    const on = await api().call(updateCardProduct.path, {
      ...base,
      id,
      cardName: '待上架',
      validDays: 30,
      onlineSale: 1,
      onlinePrice: 100,
    });
    expect([on.status, on.msg]).toEqual([400, OnlineSaleMsg.totalCount(1)]);
    const listed = async () =>
      (
        (await api().ok(cardProductList.path, {})) as { id: number; onlineSale: number; totalCount: number | null }[]
      ).find((p) => p.id === id)!;
    expect((await listed()).onlineSale).toBe(0);
    await api().ok(updateCardProduct.path, {
      ...base,
      id,
      cardName: '待上架',
      totalCount: 10,
      validDays: 30,
      onlineSale: 1,
      onlinePrice: 100,
    });
    // An edit leaving 线上售卖 out keeps it on sale: dropping the balance is refused then.
    const drop = await api().call(updateCardProduct.path, { ...base, id, cardName: '待上架', validDays: 30 });
    expect([drop.status, drop.msg]).toEqual([400, OnlineSaleMsg.totalCount(1)]);
    expect(await listed()).toMatchObject({ onlineSale: 1, totalCount: 10 });
    // Taken off sale, it may have none.
    await api().ok(updateCardProduct.path, { ...base, id, cardName: '待上架', onlineSale: 0 });
    expect(await listed()).toMatchObject({ onlineSale: 0, totalCount: null });
  });

  it('checks the 商户号 (10 digits) and the AppID (wx and 16 letters or digits) of WeChat Pay', async () => {
    const before = await api().ok(queryPaySetting.path, {});
    for (const [wechat, msg] of [
      [{ mchId: '19000091' }, PayIdMsg.mchId],
      [{ mchId: '19000091910' }, PayIdMsg.mchId],
      [{ mchId: '190000919a' }, PayIdMsg.mchId],
      [{ appId: 'wx123' }, PayIdMsg.appId],
      [{ appId: 'ab1234567890abcdef' }, PayIdMsg.appId],
    ] as const) {
      const a = await api().call(updatePaySetting.path, { wechat: { enabled: false, ...wechat } });
      expect({ wechat, status: a.status, msg: a.msg }).toEqual({ wechat, status: 400, msg });
    }
    expect(await api().ok(queryPaySetting.path, {})).toEqual(before);
    await api().ok(updatePaySetting.path, {
      wechat: { enabled: false, mchId: '1900009191', appId: 'wxd678efh567hg6787' },
    });
    const after = await api().ok(queryPaySetting.path, {});
    expect(after.wechat).toMatchObject({ mchId: '1900009191', appId: 'wxd678efh567hg6787' });
  });
});
