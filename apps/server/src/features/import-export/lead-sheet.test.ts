// The import's 潜客 sheet (issue 44): leads from a workbook beside its members, with the rules of the
// desk's add (one lead per mobile per store: merged; a mobile already a member reported), errors per
// row and column in Chinese on the dry run and nothing written, then the import writing them with
// their 跟进人, 阶段 and 营销同意 (导入).
import {
  IMPORT_FIELD_LABEL,
  ImportMsg,
  insertLead,
  insertLeadFollowUp,
  LeadImportMsg,
  LeadMsg,
  StaffMsg,
} from '@studio/contract';
import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';

const LEAD_HEADER = ['姓名', '手机号', '来源', '跟进人', '阶段', '备注', '营销同意'];

async function workbook(sheets: Record<string, string[][]>) {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) wb.addWorksheet(name).addRows(rows);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

describeEachDb('import: the 潜客 sheet', (env) => {
  const db = () => env().database.db;
  let deskName = '';
  let deskId = 0;
  const leadsOf = () =>
    db()
      .selectFrom('lead')
      .select(['id', 'name', 'mobile', 'source', 'ownerId', 'stage', 'notes', 'lostReason', 'contactedAt'])
      .where('storeId', '=', env().storeId)
      .orderBy('id')
      .execute();
  const importFile = (content: string, o: { dryRun?: boolean; mapping?: Record<string, string> } = {}) =>
    env().client.call('/store/api/import/members', {
      fileName: '导入.xlsx',
      content,
      mapping: o.mapping ?? { [IMPORT_FIELD_LABEL.name]: 'name', [IMPORT_FIELD_LABEL.mobile]: 'mobile' },
      duplicates: 'merge',
      dryRun: o.dryRun ?? false,
    });

  beforeAll(async () => {
    const desk = await staffClient(env(), 'desk');
    const me = await desk.ok<{ id: number; name: string }>('/api/auth/me');
    [deskName, deskId] = [me.name, me.id];
  });

  it('the dry run reports each bad row by row and column in Chinese, warns of members and known leads, and writes nothing', async () => {
    const member = await env().factory.member({ mobile: randomMobile() });
    const known = randomMobile();
    await env().client.ok(insertLead.path, { name: '老潜客', mobile: known, source: '电话', ownerId: null });
    const twice = randomMobile();
    const content = await workbook({
      潜客: [
        LEAD_HEADER,
        ['', randomMobile(), '', '', '', '', ''],
        ['坏手机', '1380000', '', '', '', '', ''],
        ['坏来源', randomMobile(), '地推', '', '', '', ''],
        ['坏跟进人', randomMobile(), '', '不存在的人', '', '', ''],
        ['坏阶段', randomMobile(), '', '', '已成交', '', ''],
        ['坏同意', randomMobile(), '', '', '', '', '也许'],
        ['重复甲', twice, '', '', '', '', ''],
        ['重复甲', twice, '', '', '', '', ''],
        ['已是会员', member.mobile, '到店', deskName, '已联系', '', '是'],
        ['老潜客', known, '', '', '', '又来电', ''],
      ],
    });
    const before = await leadsOf();
    const dry = await importFile(content, { dryRun: true, mapping: {} });
    expect(dry.code).toBe(0);
    const at = (p: { row: number; column: string; message: string }) => [p.row, p.column, p.message];
    expect(dry.data.errors.map(at)).toEqual([
      [2, '姓名', LeadMsg.name],
      [3, '手机号', expect.stringContaining('手机号')],
      [4, '来源', LeadMsg.unknownSource],
      [5, '跟进人', LeadImportMsg.owner('不存在的人')],
      [6, '阶段', LeadImportMsg.stage],
      [7, '营销同意', LeadImportMsg.consent],
      [9, '手机号', LeadImportMsg.sameMobile(8)],
    ]);
    expect(dry.data.errors.every((e: { sheet: string }) => e.sheet === '潜客')).toBe(true);
    expect(dry.data.warnings.map(at)).toEqual([
      [10, '手机号', LeadImportMsg.member],
      [11, '手机号', LeadImportMsg.merged('老潜客')],
    ]);
    expect(dry.data).toMatchObject({ members: 0, leads: 2, leadsMerged: 1, errorCount: 7 });
    // The import itself refuses the file while a row has a problem: nothing written.
    const real = await importFile(content, { mapping: {} });
    expect(real).toMatchObject({ status: 400, msg: ImportMsg.hasErrors(7) });
    expect(await leadsOf()).toEqual(before);
  });

  it('imports members and leads from one workbook: owner, stage, consent (导入), a known mobile merged, a member’s mobile shown 已是会员', async () => {
    const known = randomMobile();
    await env().client.ok(insertLead.path, {
      name: '老客户',
      mobile: known,
      source: '电话',
      ownerId: null,
      notes: '第一次',
    });
    const [a, b, c, m] = [randomMobile(), randomMobile(), randomMobile(), randomMobile()];
    const content = await workbook({
      会员: [
        [IMPORT_FIELD_LABEL.name, IMPORT_FIELD_LABEL.mobile],
        ['新会员', m],
      ],
      潜客: [
        LEAD_HEADER,
        ['小王', a, '团购', deskName, '已联系', '想练瑜伽', '是'],
        ['小李', `+86 ${b.slice(0, 3)}-${b.slice(3)}`, '', '', '已流失', '', '否'],
        ['老客户', known, '到店', '', '', '又来电', ''],
        ['会员本人', m, '', '', '', '', ''],
        ['小赵', c, '', '', '', '', ''],
      ],
    });
    const dry = await importFile(content, { dryRun: true });
    expect(dry.data).toMatchObject({ members: 1, leads: 4, leadsMerged: 1, errorCount: 0 });
    expect(dry.data.warnings.map((w: { row: number; message: string }) => [w.row, w.message])).toEqual([
      [4, LeadImportMsg.merged('老客户')],
      [5, LeadImportMsg.member],
    ]);
    const r = await importFile(content);
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ members: 1, leads: 4, leadsMerged: 1 });
    const leads = new Map((await leadsOf()).map((l) => [l.mobile, l]));
    expect(leads.get(a)).toMatchObject({
      name: '小王',
      source: '团购',
      ownerId: deskId,
      stage: 'contacted',
      notes: '想练瑜伽',
    });
    expect(leads.get(a)!.contactedAt).not.toBeNull();
    expect(leads.get(b)).toMatchObject({
      name: '小李',
      source: '导入',
      ownerId: null,
      stage: 'lost',
      lostReason: LeadImportMsg.lostReason,
    });
    expect(leads.get(known)).toMatchObject({ name: '老客户', source: '电话', notes: '第一次\n又来电' });
    expect(leads.get(c)).toMatchObject({ source: '导入', stage: 'new', ownerId: null });
    const info = await env().client.ok<{ memberId: number | null; consents: { granted: boolean; way: string }[] }>(
      '/store/api/query/lead/info',
      { id: leads.get(a)!.id },
    );
    expect(info.consents).toMatchObject([{ granted: true, way: 'import' }]);
    const mine = await env().client.ok<{ memberId: number | null }>('/store/api/query/lead/info', {
      id: leads.get(m)!.id,
    });
    expect(mine.memberId).not.toBeNull();
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('a workbook of only a 潜客 sheet imports its leads', async () => {
    const mobile = randomMobile();
    const content = await workbook({ 潜客: [LEAD_HEADER, ['单表潜客', mobile, '', '', '', '', '']] });
    const r = await importFile(content, { mapping: {} });
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ members: 0, cards: 0, leads: 1, leadsMerged: 0 });
    expect((await leadsOf()).some((l) => l.mobile === mobile)).toBe(true);
  });

  it('撤销 takes the import’s leads back: those it added gone with their consents, the one it merged into as it was', async () => {
    const known = randomMobile();
    await env().client.ok(insertLead.path, {
      name: '合并前',
      mobile: known,
      source: '电话',
      ownerId: null,
      notes: '原备注',
    });
    const before = (await leadsOf()).find((l) => l.mobile === known)!;
    const [a, b] = [randomMobile(), randomMobile()];
    const content = await workbook({
      潜客: [
        LEAD_HEADER,
        ['撤销甲', a, '', deskName, '已联系', '', '是'],
        ['撤销乙', b, '', '', '', '', ''],
        ['合并前', known, '', deskName, '', '导入的备注', '是'],
      ],
    });
    const consents = async () =>
      (await db().selectFrom('leadConsent').select('way').where('storeId', '=', env().storeId).execute()).filter(
        (c) => c.way === 'import',
      ).length;
    const consentsBefore = await consents();
    const r = await importFile(content, { mapping: {} });
    expect(r.data).toMatchObject({ leads: 2, leadsMerged: 1 });
    const merged = (await leadsOf()).find((l) => l.mobile === known)!;
    expect(merged).toMatchObject({ ownerId: deskId, notes: '原备注\n导入的备注' });
    expect(await consents()).toBe(consentsBefore + 2);

    await env().client.ok('/store/api/undo/bulk/change', { auditId: r.data.auditId });
    const after = await leadsOf();
    expect(after.some((l) => l.mobile === a || l.mobile === b)).toBe(false);
    expect(after.find((l) => l.mobile === known)).toEqual(before);
    expect(await consents()).toBe(consentsBefore);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it('撤销 is refused once an imported lead was followed up, naming it; nothing is taken back', async () => {
    const mobile = randomMobile();
    const content = await workbook({ 潜客: [LEAD_HEADER, ['跟进过', mobile, '', deskName, '', '', '']] });
    const r = await importFile(content, { mapping: {} });
    const lead = (await leadsOf()).find((l) => l.mobile === mobile)!;
    await env().client.ok(insertLeadFollowUp.path, { leadId: lead.id, way: 'phone', note: '打过电话', nextDate: null });
    const refused = await env().client.call('/store/api/undo/bulk/change', { auditId: r.data.auditId });
    expect(refused).toMatchObject({ status: 409, msg: StaffMsg.undoBlocked(LeadImportMsg.changedSince('跟进过')) });
    expect((await leadsOf()).some((l) => l.mobile === mobile)).toBe(true);
  });
});
