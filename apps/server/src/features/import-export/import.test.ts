// 导入 and 导出全部数据 (issue 30 items 5-6): a file with thirty kinds of bad rows reported row by row
// with nothing written; a GBK CSV imported in one go (opening ledger entries, invariants hold),
// merged or skipped against existing members, undone from 操作日志; two imports at once; and a
// store exported (.xlsx and JSON) and imported into an empty store with the same members, balances,
// expiry and ledger sums.
import {
  BIG_TYPE_MONEY,
  CARD_TYPE_EXPIRES,
  IMPORT_FIELD_LABEL,
  IMPORT_FIELDS,
  ImportMsg,
  Msg,
  StaffMsg,
} from '@studio/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomMobile } from '../../test/factory.ts';
import { describeEachDb, newStore, type Client } from '../../test/harness.ts';
import { checkInvariants } from '../../test/invariants.ts';

const STORE = '/store/api';
const HEADER = IMPORT_FIELDS.map((f) => IMPORT_FIELD_LABEL[f]);
const MAPPING = Object.fromEntries(IMPORT_FIELDS.map((f) => [IMPORT_FIELD_LABEL[f], f]));

const csv = (rows: string[][]) =>
  [HEADER, ...rows]
    .map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
    .join('\r\n');
const b64 = (buf: Uint8Array | string) => Buffer.from(buf).toString('base64');
/** GBK bytes of `text` (what Excel in China saves a CSV as). */
const gbk = (text: string) => {
  // Node has no GBK encoder: map each character through a decoder table of the two-byte range.
  const table = new Map<string, number[]>();
  const dec = new TextDecoder('gbk');
  for (let a = 0x81; a <= 0xfe; a++) {
    for (let b = 0x40; b <= 0xfe; b++) table.set(dec.decode(new Uint8Array([a, b])), [a, b]);
  }
  const out: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
    else out.push(...(table.get(ch) ?? [0x3f]));
  }
  return new Uint8Array(out);
};

describeEachDb('import and export', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown> = {}, client?: Client) =>
    (client ?? env().client).ok<T>(`${STORE}/${path}`, body);
  const call = (path: string, body: Record<string, unknown> = {}, client?: Client) =>
    (client ?? env().client).call(`${STORE}/${path}`, body);
  const importCsv = (rows: string[][], o: { dryRun?: boolean; duplicates?: 'merge' | 'skip' } = {}, client?: Client) =>
    call(
      'import/members',
      {
        fileName: '会员.csv',
        content: b64(csv(rows)),
        mapping: MAPPING,
        duplicates: o.duplicates ?? 'merge',
        dryRun: o.dryRun ?? false,
      },
      client,
    );
  const membersOf = (storeId: number) =>
    env()
      .database.db.selectFrom('member')
      .select(['id', 'name', 'mobile', 'gender', 'birthday', 'remark'])
      .where('storeId', '=', storeId)
      .orderBy('mobile')
      .execute();
  const cardsOf = (storeId: number) =>
    env()
      .database.db.selectFrom('memberCard as mc')
      .innerJoin('member as m', 'm.id', 'mc.memberId')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select(['mc.id', 'm.mobile', 'p.cardName', 'mc.totalCount', 'mc.usedCount', 'mc.expireTime'])
      .where('mc.storeId', '=', storeId)
      .orderBy('mc.id')
      .execute();
  const ledgerSum = async (storeId: number) => {
    const rows = await env()
      .database.db.selectFrom('cardLedger')
      .select(['kind', 'amount'])
      .where('storeId', '=', storeId)
      .execute();
    // What the cards hold: what came in less what was used.
    return rows.reduce((n, r) => n + (['deduct', 'refund'].includes(r.kind) ? -1 : 1) * Number(r.amount), 0);
  };

  let today: string;
  beforeAll(async () => {
    const f = env().factory;
    await f.cardProduct({ cardName: '十次卡', cardType: CARD_TYPE_EXPIRES, validDays: 365 });
    await f.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY });
    await f.cardProduct({ cardName: '停用卡', enabled: 0 });
    await f.cardProduct({ cardName: '期限卡', cardType: CARD_TYPE_EXPIRES, validDays: null });
    today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  });

  it('reads the columns and guesses the mapping from the headings', async () => {
    const text = '会员姓名,手机号码,性别,备注说明\n张三,13800138000,男,\n';
    const a = await ok('query/import/columns', { fileName: 'a.csv', content: b64(text) });
    expect(a.columns).toEqual(['会员姓名', '手机号码', '性别', '备注说明']);
    expect(a.rows).toBe(1);
    expect(a.mapping).toMatchObject({ 会员姓名: 'name', 手机号码: 'mobile', 性别: 'gender', 备注说明: 'ignore' });
    const bad = await call('query/import/columns', { fileName: 'a.xls', content: b64('abc') });
    expect(bad).toMatchObject({ status: 400, msg: ImportMsg.fileKind });
  });

  it('reports thirty kinds of bad rows, each with its row and column, and writes nothing', async () => {
    const m = () => randomMobile();
    const dup = m();
    const twice = m();
    const good = m();
    // [name, mobile, gender, birthday, remark, card, remaining, expire, sale, paid], the message, the column.
    const cases: [string[], string, string][] = [
      [['', m()], ImportMsg.nameMissing, '姓名'],
      [['长'.repeat(51), m()], ImportMsg.nameTooLong, '姓名'],
      [['甲', ''], ImportMsg.mobileMissing, '手机号'],
      [['乙', '1380013'], ImportMsg.mobileBad, '手机号'],
      [['丙', m(), '不详'], ImportMsg.genderBad, '性别'],
      [['丁', m(), '', '1990-02-30'], ImportMsg.birthdayBad, '生日'],
      [['戊', m(), '', '2199-01-01'], ImportMsg.birthdayFuture, '生日'],
      [['己', m(), '', '', 'x'.repeat(501)], ImportMsg.remarkTooLong, '备注'],
      [['庚', m(), '', '', '', '黄金卡', '10'], ImportMsg.cardUnknown, '卡种'],
      [['辛', m(), '', '', '', '停用卡', '10'], ImportMsg.cardDisabled, '卡种'],
      [['壬', m(), '', '', '', '', '10'], ImportMsg.cardMissing, '卡种'],
      [['癸', m(), '', '', '', '十次卡', ''], ImportMsg.remainingMissing, '剩余次数或余额'],
      [['子', m(), '', '', '', '十次卡', '十'], ImportMsg.remainingBad, '剩余次数或余额'],
      [['丑', m(), '', '', '', '储值卡', '-5'], ImportMsg.remainingNegative, '剩余次数或余额'],
      [['寅', m(), '', '', '', '十次卡', '2.5'], ImportMsg.remainingCountWhole, '剩余次数或余额'],
      [['卯', m(), '', '', '', '储值卡', '10.123'], ImportMsg.remainingMoneyCents, '剩余次数或余额'],
      [['辰', m(), '', '', '', '十次卡', '1000000'], ImportMsg.remainingTooBig, '剩余次数或余额'],
      [['巳', m(), '', '', '', '十次卡', '10', '明年'], ImportMsg.expireBad, '到期日'],
      [['午', m(), '', '', '', '十次卡', '10', '2024-01-01', '2024-06-01'], ImportMsg.expireBeforeSale, '到期日'],
      [['未', m(), '', '', '', '期限卡', '10'], ImportMsg.expireMissing, '到期日'],
      [['申', m(), '', '', '', '储值卡', '10', '2030-01-01'], ImportMsg.expireNotAllowed, '到期日'],
      [['酉', m(), '', '', '', '十次卡', '10', '', '2024-13-01'], ImportMsg.saleBad, '开卡日期'],
      [['戌', m(), '', '', '', '十次卡', '10', '', '2199-01-01'], ImportMsg.saleFuture, '开卡日期'],
      [['亥', m(), '', '', '', '十次卡', '10', '', '', '一百'], ImportMsg.paidBad, '实收金额'],
      [['天', m(), '', '', '', '十次卡', '10', '', '', '-1'], ImportMsg.paidNegative, '实收金额'],
      [['地', m(), '', '', '', '', '', '', '', '100'], ImportMsg.paidWithoutCard, '实收金额'],
      [['玄', m(), '', '', '', '', '', '2030-01-01'], ImportMsg.cardFieldsWithoutCard, '到期日'],
      [['黄', dup], '', ''],
      [['宇', dup, '', '', '', '十次卡', '5'], ImportMsg.sameMobileOtherName(29), '姓名'],
      [['宙', twice], '', ''],
      [['宙', twice], ImportMsg.sameMobileTwice(31), '手机号'],
      [['洪', m(), '', '', 'a\u0007b'], ImportMsg.textControl, '备注'],
      [['荒', good, '女', '1995-05-05', '好', '十次卡', '8', '2030-01-01', '2025-01-01', '1200'], '', ''],
    ];
    const rows = cases.map(([cells]) => [...cells, ...Array(10 - cells.length).fill('')]);
    const before = (await membersOf(env().storeId)).length;
    const dry = (await importCsv(rows, { dryRun: true })).data;
    const expected = cases.flatMap(([, message, column], i) =>
      message ? [{ sheet: '', row: i + 2, column, message }] : [],
    );
    expect(new Set(expected.map((e) => e.message)).size).toBe(30);
    expect(dry.errors).toEqual(expected);
    expect(dry.errorCount).toBe(30);
    // The good rows are counted: 黄, the first 宙 and 荒 (and 荒's card).
    expect(dry).toMatchObject({ members: 3, cards: 1, auditId: null });
    const real = await importCsv(rows);
    expect(real).toMatchObject({ status: 400, msg: ImportMsg.hasErrors(30) });
    expect((await membersOf(env().storeId)).length).toBe(before);
  });

  it('imports a GBK CSV: members, cards with one opening entry each, invariants hold; then undoes it', async () => {
    const [a, b] = [randomMobile(), randomMobile()];
    const rows = [
      ['王小明', a, '男', '1990/5/1', '老会员', '十次卡', '7', '2030-12-31', '2025-01-10', '1,500.00'],
      ['王小明', a, '', '', '', '储值卡', '88.80', '', '', ''],
      ['李华', b, '女', '', '', '', '', '', '', ''],
    ];
    const text = csv(rows);
    const body = { fileName: '会员.csv', content: b64(gbk(text)), mapping: MAPPING, duplicates: 'merge' };
    const dry = await ok('import/members', { ...body, dryRun: true });
    expect(dry).toMatchObject({ members: 2, cards: 2, updated: 0, errors: [], errorCount: 0 });
    const done = await ok('import/members', body);
    expect(done).toMatchObject({ members: 2, cards: 2 });
    expect(done.auditId).toBeGreaterThan(0);
    const members = (await membersOf(env().storeId)).filter((m) => [a, b].includes(m.mobile));
    const byMobile = new Map(members.map((m) => [m.mobile, [m.name, m.gender, m.birthday, m.remark]]));
    expect(byMobile.get(a)).toEqual(['王小明', 1, '1990-05-01', '老会员']);
    expect(byMobile.get(b)).toEqual(['李华', 2, null, null]);
    const cards = (await cardsOf(env().storeId)).filter((c) => c.mobile === a);
    expect(
      cards
        .map((c) => [c.cardName, Number(c.totalCount), Number(c.usedCount), c.expireTime])
        .sort((p, q) => Number(p[1]) - Number(q[1])),
    ).toEqual([
      ['十次卡', 7, 0, '2030-12-31 23:59:59'],
      ['储值卡', 8880, 0, null],
    ]);
    const ledger = await env()
      .database.db.selectFrom('cardLedger')
      .select(['memberCardId', 'kind', 'amount', 'remark'])
      .where(
        'memberCardId',
        'in',
        cards.map((c) => c.id),
      )
      .execute();
    expect(ledger.map((l) => [l.kind, Number(l.amount), l.remark]).sort()).toEqual([
      ['issue', 7, '导入期初余额'],
      ['issue', 8880, '导入期初余额'],
    ]);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
    // The mapping is remembered for the next file.
    const cols = await ok('query/import/columns', { fileName: 'b.csv', content: b64(csv([]) + '\n张,13800138000') });
    expect(cols.mapping).toEqual(MAPPING);
    // Undone from 操作日志 as a bulk change.
    const log = await ok('query/audit/log', { fromDate: today, toDate: today, page: 1, pageSize: 5 });
    const row = log.list.find((r: { id: number }) => r.id === done.auditId);
    expect(row).toMatchObject({ kind: 'bulk', undoable: true });
    await ok('undo/bulk/change', { auditId: done.auditId });
    expect((await membersOf(env().storeId)).filter((m) => [a, b].includes(m.mobile))).toEqual([]);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
    const again = await call('undo/bulk/change', { auditId: done.auditId });
    expect(again).toMatchObject({ status: 409, msg: StaffMsg.undoDone });
  });

  it('merges or skips members that exist, and refuses the undo once an imported card was used', async () => {
    const f = env().factory;
    const had = await f.member({ name: '老张', gender: 1, birthday: null, remark: null });
    const rows = [['老张', had.mobile, '', '1980-01-01', '', '十次卡', '3', '', '', '']];
    const skip = await ok('import/members', {
      fileName: 'a.csv',
      content: b64(csv(rows)),
      mapping: MAPPING,
      duplicates: 'skip',
    });
    expect(skip).toMatchObject({ members: 0, skipped: 1, cards: 0 });
    const merge = await ok('import/members', {
      fileName: 'a.csv',
      content: b64(csv(rows)),
      mapping: MAPPING,
      duplicates: 'merge',
    });
    expect(merge).toMatchObject({ members: 0, updated: 1, cards: 1 });
    const now = await env()
      .database.db.selectFrom('member')
      .selectAll()
      .where('id', '=', had.id)
      .executeTakeFirstOrThrow();
    expect([now.name, now.gender, now.birthday]).toEqual(['老张', 1, '1980-01-01']);
    const [card] = (await cardsOf(env().storeId)).filter((c) => c.mobile === had.mobile);
    expect(card.expireTime).toBe(`${addDaysText(today, 365)} 23:59:59`);
    await ok('update/member/card/topup', { id: card.id, amount: 1 });
    const refused = await call('undo/bulk/change', { auditId: merge.auditId });
    expect(refused.status).toBe(409);
    expect(refused.msg).toContain('无法撤销');
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('refuses a second import of the store while one runs, and the same file twice at once', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => [
      `并发${i}`,
      randomMobile(),
      '',
      '',
      '',
      '十次卡',
      '5',
      '',
      '',
      '',
    ]);
    // An import running (on any instance) holds the store's lock row: another is refused, then runs.
    const db = env().database.db;
    const key = `${STORE}/import/members:${env().storeId}`;
    await db.insertInto('opLock').values({ key, storeId: env().storeId, createdAt: Date.now() }).execute();
    expect(await importCsv(rows.slice(0, 1))).toMatchObject({ status: 409, msg: ImportMsg.busy });
    await db.deleteFrom('opLock').where('key', '=', key).execute();
    const [x, y] = await Promise.all([importCsv(rows), importCsv(rows)]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect([ImportMsg.busy, Msg.duplicateOp]).toContain([x, y].find((a) => a.status === 409)?.msg);
    // One import's members and cards, once.
    const mine = (await membersOf(env().storeId)).filter((m) => m.name.startsWith('并发'));
    expect(mine.length).toBe(300);
    const cards = (await cardsOf(env().storeId)).filter((c) => mine.some((m) => m.mobile === c.mobile));
    expect(cards.length).toBe(300);
    // And the next file imports.
    expect((await importCsv(rows.slice(0, 1))).status).toBe(200);
  });

  describe('export and import back', () => {
    it('exports the store as .xlsx and JSON; the workbook imports into an empty store the same', async () => {
      const e = env();
      const source = await newStore(e.app, e.database, '搬出门店');
      const count = await source.factory.cardProduct({
        cardName: '十次卡',
        cardType: CARD_TYPE_EXPIRES,
        validDays: 365,
      });
      const money = await source.factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY });
      const id = (name: string) => (name === '十次卡' ? count.id : money.id);
      for (let i = 0; i < 25; i++) {
        const mid = (
          await ok<{ id: number }>(
            'insert/member',
            { name: `会员${i}`, mobile: randomMobile(), gender: i % 3, birthday: i % 2 ? '1991-03-04' : null },
            source.client,
          )
        ).id;
        if (i % 5 === 4) continue;
        const card = await ok<{ id: number }>(
          'insert/member/card',
          {
            mid,
            cardId: id('十次卡'),
            totalCount: 10 + i,
            expireTime: '2030-06-30',
            payment: { amount: 100_00 + i, method: 'cash', remark: null },
          },
          source.client,
        );
        if (i % 2) await ok('update/member/card/topup', { id: card.id, amount: 3 }, source.client);
        if (i % 3 === 0) {
          await ok(
            'insert/member/card',
            { mid, cardId: id('储值卡'), totalCount: 123_45, expireTime: null },
            source.client,
          );
        }
      }
      const link = await ok<{ url: string; fileName: string }>('export/store/data', { format: 'xlsx' }, source.client);
      expect(link.url).toMatch(/^\/store\/files\/export\//);
      const got = await e.app.inject({ method: 'GET', url: link.url, headers: { cookie: source.client.cookie! } });
      expect(got.statusCode).toBe(200);
      // Someone else's login, or none, gets nothing.
      expect(
        (await e.app.inject({ method: 'GET', url: link.url, headers: { cookie: e.client.cookie! } })).statusCode,
      ).toBe(404);
      expect((await e.app.inject({ method: 'GET', url: link.url })).statusCode).toBe(401);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(got.rawPayload as unknown as ArrayBuffer);
      expect(wb.worksheets.map((w) => w.name)).toEqual(['会员', '会员卡', '流水', '预约', '课程', '订单', '收款']);

      const json = await ok<{ url: string }>('export/store/data', { format: 'json' }, source.client);
      const data = (
        await e.app.inject({ method: 'GET', url: json.url, headers: { cookie: source.client.cookie! } })
      ).json();
      expect(data.members).toHaveLength(25);
      expect(data.cards.length).toBe((await cardsOf(source.storeId)).length);

      const target = await newStore(e.app, e.database, '搬入门店');
      await target.factory.cardProduct({ cardName: '十次卡', cardType: CARD_TYPE_EXPIRES, validDays: 365 });
      await target.factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY });
      const content = b64(got.rawPayload);
      const cols = await ok('query/import/columns', { fileName: link.fileName, content }, target.client);
      const done = await ok(
        'import/members',
        { fileName: link.fileName, content, mapping: cols.mapping, duplicates: 'merge' },
        target.client,
      );
      expect(done).toMatchObject({ members: 25, errorCount: 0 });
      const strip = (rows: { mobile: string; name: string; gender: number; birthday: string | null }[]) =>
        rows.map((m) => [m.mobile, m.name, m.gender, m.birthday]);
      expect(strip(await membersOf(target.storeId))).toEqual(strip(await membersOf(source.storeId)));
      const held = async (storeId: number) =>
        (await cardsOf(storeId))
          .map((c) => [c.mobile, c.cardName, Number(c.totalCount) - Number(c.usedCount), c.expireTime])
          .sort((p, q) => JSON.stringify(p).localeCompare(JSON.stringify(q)));
      expect(await held(target.storeId)).toEqual(await held(source.storeId));
      expect(await ledgerSum(target.storeId)).toBe(await ledgerSum(source.storeId));
      expect(await checkInvariants(e.database.db, target.storeId)).toEqual([]);
    });
  });
});

function addDaysText(date: string, days: number) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
