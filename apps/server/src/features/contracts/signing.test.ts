import {
  addGroupPending,
  addMemberReservation,
  cardRefundQuote,
  ContractMsg,
  createCardContractLink,
  downloadCardContract,
  insertMemberCard,
  memberBook,
  memberCardContract,
  memberCardsForSession,
  memberMyCards,
  memberContractPreview,
  memberCreateOrder,
  memberDownloadContract,
  memberQueryOrder,
  memberSendContractCode,
  memberSignContract,
  Msg,
  PayMsg,
  PendingStatus,
  queryCardContract,
  signCardContract,
  signInPendingCall,
  transferMemberCard,
  updateBookingPolicy,
  updateContractTemplate,
  updateSmsSetting,
  CONTRACT_DEFAULT_BODY,
  CONTRACT_DEFAULT_TITLE,
} from '@studio/contract';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb, type TestEnv } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { onlineStoreOfFile } from '../../../test/payment-support.ts';
import { SECRET, startSmsStandIn } from '../../../test/sms-stand-in.ts';
import { loadConfig } from '../../config.ts';
import { issueCode } from '../../auth/member-codes.ts';
import { runNoShows } from '../no-show/service.ts';
import { renderContractPdf, sha256 } from './pdf.ts';
import { cardContractOf, contractPdf } from './repository.ts';
import { verifyContract } from './signing.ts';

/** A PNG of 1x1 pixel (a drawn signature's stand-in). */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The code texted to the member to sign (the SMS's content, made as the send-code call makes it). */
const codeFor = async (env: TestEnv, memberId: number) =>
  (await issueCode(env.database.db, { storeId: env.storeId, memberId }, 'contract')).code;

/** Turns the database's own guard off for a moment (what only someone with the database could do). */
async function withoutTrigger(env: TestEnv, fn: () => Promise<void>) {
  const db = env.database.db;
  if (env.database.dialect === 'postgres') {
    await sql`alter table card_contract disable trigger card_contract_signed`.execute(db);
    try {
      await fn();
    } finally {
      await sql`alter table card_contract enable trigger card_contract_signed`.execute(db);
    }
  } else {
    await sql`drop trigger card_contract_signed_update`.execute(db);
    await fn();
  }
}

describeEachDb('contracts: signing (待签约 → 已签约), the PDF and its hash, downloads, booking', (env) => {
  const online = onlineStoreOfFile(env);
  const manager = () => env().client;

  /** A desk sale (开卡 with money) of a product a course allows: its contract is 待签约. */
  async function deskSale() {
    const ef = new EngineFactory(env().factory);
    const { teacher, product, course } = await ef.scene({ product: { cardName: '签约十次卡', totalCount: 10 } });
    const member = await env().factory.member({ name: '签约会员' });
    const { id } = await manager().ok(insertMemberCard.path, {
      mid: member.id,
      cardId: product.id,
      totalCount: 10,
      expireTime: '2099-12-31',
      payment: { amount: 100000, method: 'cash', remark: null },
    });
    const session = await ef.session({ courseId: course.id, teacherId: teacher.id });
    return { member, mcId: id as number, session, ef, course, teacher };
  }

  it('a desk sale is 待签约; the member signs through the QR’s link with a texted code; then 已签约, the PDF verifies', async () => {
    const { member, mcId } = await deskSale();
    expect(await manager().ok(queryCardContract.path, { mcId })).toMatchObject({ status: 'pending', signedAt: null });
    const { url } = await manager().ok(createCardContractLink.path, { mcId });
    const token = new URL(url).searchParams.get('sign')!;
    const me = await memberClient(env(), member);
    const shown = await me.ok(memberCardContract.path, { token });
    expect(shown).toMatchObject({ mcId, status: 'pending' });
    expect(shown.text).toContain('乙方（会员）：签约会员');
    // a forged or altered token, another member: refused
    const forged = await me.call(memberCardContract.path, { token: `${token.slice(0, -2)}x` });
    expect([forged.status, forged.msg]).toEqual([400, ContractMsg.link]);
    const stranger = await memberClient(env(), await env().factory.member());
    const theirs = await stranger.call(memberCardContract.path, { token });
    expect([theirs.status, theirs.msg]).toEqual([404, Msg.notFound('会员卡')]);
    // no tick, a wrong code: refused in Chinese; nothing signed
    const noTick = await me.call(memberSignContract.path, { mcId, agree: false, code: '123456' });
    expect([noTick.status, noTick.msg]).toEqual([400, ContractMsg.agree]);
    const code = await codeFor(env(), member.id);
    const wrong = await me.call(memberSignContract.path, {
      mcId,
      agree: true,
      code: code === '000000' ? '111111' : '000000',
    });
    expect([wrong.status, wrong.msg]).toEqual([400, ContractMsg.badCode]);
    const notYet = await me.call(memberDownloadContract.path, { mcId });
    expect([notYet.status, notYet.msg]).toEqual([409, ContractMsg.unsigned]);
    const signed = await me.ok(memberSignContract.path, { mcId, agree: true, code });
    expect(signed).toMatchObject({ status: 'signed', signMethod: 'qr', signerName: '签约会员' });
    expect(signed.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    // the same code once more, or signing again: refused
    const again = await me.call(memberSignContract.path, { mcId, agree: true, code });
    expect([again.status, again.msg]).toEqual([409, ContractMsg.signed]);
    // downloads: the member's own, the desk's; another member's or store's is not found
    const file = await me.ok(memberDownloadContract.path, { mcId });
    const pdf = Buffer.from(file.pdf, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(sha256(pdf)).toBe(signed.pdfSha256);
    expect((await manager().ok(downloadCardContract.path, { mcId })).pdf).toBe(file.pdf);
    expect((await stranger.call(memberDownloadContract.path, { mcId })).status).toBe(404);
    expect((await env().other.client.call(downloadCardContract.path, { mcId })).status).toBe(404);
    expect((await env().other.client.call(createCardContractLink.path, { mcId })).status).toBe(404);
    const row = (await cardContractOf(env().database.db, env().storeId, mcId))!;
    expect(verifyContract(row, await contractPdf(env().database.db, Number(row.id)))).toEqual([]);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('平板手写: a drawn PNG signs; a malformed or huge image is refused in Chinese; the rendering is deterministic', async () => {
    const { mcId } = await deskSale();
    const bad = await manager().call(signCardContract.path, { mcId, image: 'data:image/png;base64,AAAA' });
    expect([bad.status, bad.msg]).toEqual([400, ContractMsg.imageFormat]);
    const notPng = await manager().call(signCardContract.path, { mcId, image: 'data:image/jpeg;base64,AAAA' });
    expect([notPng.status, notPng.msg]).toEqual([400, ContractMsg.imageFormat]);
    const huge = await manager().call(signCardContract.path, {
      mcId,
      image: `data:image/png;base64,${'A'.repeat(300_000)}`,
    });
    expect([huge.status, huge.msg]).toEqual([400, ContractMsg.imageSize]);
    expect((await manager().ok(queryCardContract.path, { mcId }))!.status).toBe('pending');
    const signed = await manager().ok(signCardContract.path, { mcId, image: PNG });
    expect(signed).toMatchObject({ status: 'signed', signMethod: 'tablet' });
    // the refund quote cites the contract: its version, when signed, its cooling-off and refund terms
    const quote = await manager().ok(cardRefundQuote.path, { mcId });
    expect(quote.contract).toMatchObject({ version: 1, signedAt: signed.signedAt, coolingOffDays: '7' });
    expect(quote.contract.refund).toContain('按未使用部分占比退还实付金额');
    const twice = await manager().call(signCardContract.path, { mcId, image: PNG });
    expect([twice.status, twice.msg]).toEqual([409, ContractMsg.signed]);
    // the same contract rendered again gives the same bytes
    const font = loadConfig({}).contractFont;
    const c = {
      title: CONTRACT_DEFAULT_TITLE,
      text: CONTRACT_DEFAULT_BODY,
      version: 1,
      signerName: '签约会员',
      methodLabel: '平板手写',
      signedAt: '2026-12-07 10:00:00',
      timezone: 'Asia/Shanghai',
      ip: '127.0.0.1',
      image: Buffer.from(PNG.split(',')[1], 'base64'),
    };
    expect(sha256(await renderContractPdf(c, font))).toBe(sha256(await renderContractPdf(c, font)));
    const missing = await renderContractPdf(c, { path: '/nonexistent/font.ttc', name: 'x' }).catch((e: Error) => e);
    expect((missing as Error).message).toContain('合同 PDF 的中文字体文件不存在');
  });

  it('a signed contract cannot be changed or deleted (the database refuses); a change made past that is detected', async () => {
    const { mcId } = await deskSale();
    await manager().ok(signCardContract.path, { mcId, image: PNG });
    const db = env().database.db;
    await expect(
      db.updateTable('cardContract').set({ terms: '{}' }).where('memberCardId', '=', mcId).execute(),
    ).rejects.toThrow(/signed contracts cannot be changed/);
    await expect(
      db
        .updateTable('cardContract')
        .set({ pdf: Buffer.from('x') })
        .where('memberCardId', '=', mcId)
        .execute(),
    ).rejects.toThrow(/signed contracts cannot be changed/);
    await expect(db.deleteFrom('cardContract').where('memberCardId', '=', mcId).execute()).rejects.toThrow(
      /signed contracts cannot be changed/,
    );
    const row = (await cardContractOf(db, env().storeId, mcId))!;
    const pdf = (await contractPdf(db, Number(row.id)))!;
    // tampered: the stored PDF's bytes, or the stored terms
    await withoutTrigger(env(), async () => {
      const altered = Buffer.from(pdf);
      altered[altered.length - 20] ^= 1;
      await db.updateTable('cardContract').set({ pdf: altered }).where('id', '=', row.id).execute();
      expect(await checkInvariants(db, env().storeId)).toEqual([
        `contract of card ${mcId}: PDF 与签署时的 SHA-256 不符`,
      ]);
      const terms = JSON.stringify({ ...JSON.parse(row.terms), price: '1.00 元' });
      await db.updateTable('cardContract').set({ pdf, terms }).where('id', '=', row.id).execute();
      expect(await checkInvariants(db, env().storeId)).toEqual([
        `contract of card ${mcId}: 合同条款或签署信息与签署时不符`,
      ]);
      await db.updateTable('cardContract').set({ terms: row.terms }).where('id', '=', row.id).execute();
    });
    if (env().database.dialect !== 'postgres') {
      // put the guard back as the migration made it
      await sql
        .raw(
          `create trigger card_contract_signed_update before update on card_contract when old.pdf_sha256 is not null or (old.signed_at is not null and (${[
            'id',
            'store_id',
            'member_card_id',
            'member_id',
            'template_id',
            'terms',
            'created_at',
            'signed_at',
            'sign_method',
            'signer_id',
            'sign_ip',
            'sign_ua',
            'signature_png',
          ]
            .map((c) => `new.${c} is not old.${c}`)
            .join(' or ')})) begin select raise(abort, 'signed contracts cannot be changed'); end`,
        )
        .execute(db);
    }
    expect(await checkInvariants(db, env().storeId)).toEqual([]);
  });

  it('未签约的卡可以预约: no → a 待签约 card is refused booking; signed, it books; yes (default) → it books', async () => {
    const tmpl = { title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY, licenceName: '' };
    await manager().ok(updateContractTemplate.path, { ...tmpl, unsignedMayBook: false });
    const a = await deskSale();
    const refused = await manager().call(addMemberReservation.path, {
      tid: a.session.id,
      mcId: a.mcId,
      studentCount: 1,
    });
    expect([refused.status, refused.msg]).toEqual([409, Msg.cardUnsigned]);
    await manager().ok(signCardContract.path, { mcId: a.mcId, image: PNG });
    await manager().ok(addMemberReservation.path, { tid: a.session.id, mcId: a.mcId, studentCount: 1 });
    await manager().ok(updateContractTemplate.path, { ...tmpl, unsignedMayBook: true });
    const b = await deskSale();
    await manager().ok(addMemberReservation.path, { tid: b.session.id, mcId: b.mcId, studentCount: 1 });
  });

  it('未签约的卡可以预约: no → a booking already made with a 待签约 card is still charged (sign-in, a no-show); a new one is refused', async () => {
    const tmpl = { title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY, licenceName: '' };
    const { member, mcId, session, ef, course, teacher } = await deskSale();
    const later = await ef.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} 14:00:00` });
    const third = await ef.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} 16:00:00` });
    await ef.setMode(1);
    await manager().ok(updateBookingPolicy.path, { noShow: 'forfeit', noShowLimit: 0, noShowSuspendDays: 0 });
    try {
      // booked while the store let unsigned cards book; then it books only signed ones
      await manager().ok(addGroupPending.path, { mid: member.id, tid: session.id, mcId, studentCount: 1 });
      await manager().ok(addGroupPending.path, { mid: member.id, tid: later.id, mcId, studentCount: 1 });
      await manager().ok(updateContractTemplate.path, { ...tmpl, unsignedMayBook: false });
      const pendingOf = (tid: number) =>
        env().database.db.selectFrom('pending').selectAll().where('timetableId', '=', tid).executeTakeFirstOrThrow();
      // the sign-in charges the card
      const first = await pendingOf(session.id);
      await manager().ok(signInPendingCall.path, { pendingId: first.id, mcId, remark: '' });
      expect((await ef.cardRow(mcId)).usedCount).toBe(1);
      // the no-show is charged to it too
      const second = await pendingOf(later.id);
      await runNoShows(env().database.db, env().dialect, () => `${FUTURE} 23:00:00`);
      const noShow = await pendingOf(later.id);
      expect([noShow.id, noShow.status, Number(noShow.noShowFee), noShow.noShowCardId]).toEqual([
        second.id,
        PendingStatus.NO_SHOW,
        1,
        mcId,
      ]);
      expect((await ef.cardRow(mcId)).usedCount).toBe(2);
      // the member's own new booking with it is refused, and the picker says why
      const me = await memberClient(env(), member);
      const picker = await me.ok(memberCardsForSession.path, { tid: third.id });
      expect(picker.find((c: { id: number }) => c.id === mcId)).toMatchObject({
        usable: false,
        reason: Msg.cardUnsigned,
      });
      const refused = await me.call(memberBook.path, { tid: third.id, mcId });
      expect([refused.status, refused.msg]).toEqual([409, Msg.cardUnsigned]);
    } finally {
      await manager().ok(updateContractTemplate.path, { ...tmpl, unsignedMayBook: true });
      await manager().ok(updateBookingPolicy.path, { noShow: 'none', noShowLimit: 0, noShowSuspendDays: 0 });
      await ef.setMode(0);
    }
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('a signed card transferred: its new holder sees it 已签约, books with it, opens and downloads its contract', async () => {
    const tmpl = { title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY, licenceName: '' };
    const { member, mcId, session } = await deskSale();
    const signed = await manager().ok(signCardContract.path, { mcId, image: PNG });
    const heir = await env().factory.member({ name: '受让会员' });
    await manager().ok(transferMemberCard.path, { mcId, toMid: heir.id, futureBookings: 'keep' });
    await manager().ok(updateContractTemplate.path, { ...tmpl, unsignedMayBook: false });
    try {
      const me = await memberClient(env(), heir);
      const mine = await me.ok(memberMyCards.path, {});
      expect(mine.find((c: { id: number }) => c.id === mcId)).toMatchObject({ contract: 'signed' });
      await me.ok(memberBook.path, { tid: session.id, mcId });
      // the contract is the card's: still the buyer's name and signature, opened by its holder
      expect(await me.ok(memberCardContract.path, { mcId })).toMatchObject({
        mcId,
        status: 'signed',
        signerName: '签约会员',
        pdfSha256: signed.pdfSha256,
      });
      const file = await me.ok(memberDownloadContract.path, { mcId });
      expect(sha256(Buffer.from(file.pdf, 'base64'))).toBe(signed.pdfSha256);
      // the buyer holds the card no more
      const buyer = await memberClient(env(), member);
      expect((await buyer.call(memberCardContract.path, { mcId })).status).toBe(404);
    } finally {
      await manager().ok(updateContractTemplate.path, { ...tmpl, unsignedMayBook: true });
    }
  });

  it('online: a card order without the signature is refused (400) and nothing is written', async () => {
    const member = await env().factory.member({ name: '未签会员' });
    const me = await memberClient(env(), member);
    me.signsOrders = false;
    const atWechat = online.wx.orders.size;
    const order = { productId: online.product.id, method: 'wechat_native' };
    const none = await me.call(memberCreateOrder.path, order);
    expect([none.status, none.msg]).toEqual([400, ContractMsg.agree]);
    const noCode = await me.call(memberCreateOrder.path, { ...order, agree: true });
    expect([noCode.status, noCode.msg]).toEqual([400, ContractMsg.code]);
    const db = env().database.db;
    expect(await db.selectFrom('payOrder').select('id').where('memberId', '=', member.id).execute()).toEqual([]);
    expect(await db.selectFrom('memberCard').select('id').where('memberId', '=', member.id).execute()).toEqual([]);
    expect(online.wx.orders.size).toBe(atWechat);
  });

  it('online: read the contract, sign with the texted code before paying; a wrong code makes no order; paid → 已签约 (手机验证码)', async () => {
    const member = await env().factory.member({ name: '线上会员' });
    const me = await memberClient(env(), member);
    const preview = await me.ok(memberContractPreview.path, { productId: online.product.id });
    expect(preview.text).toContain('乙方（会员）：线上会员');
    expect(preview.text).toContain('「10次卡」');
    const order = { productId: online.product.id, method: 'wechat_native' };
    const noTick = await me.call(memberCreateOrder.path, { ...order, agree: false, signCode: '123456' });
    expect([noTick.status, noTick.msg]).toEqual([400, ContractMsg.agree]);
    const wrong = await me.call(memberCreateOrder.path, { ...order, agree: true, signCode: '000000' });
    expect([wrong.status, wrong.msg]).toEqual([400, ContractMsg.badCode]);
    const code = await codeFor(env(), member.id);
    const o = await me.ok(memberCreateOrder.path, { ...order, agree: true, signCode: code });
    // the code is used: a second order with it is refused
    const reused = await me.call(memberCreateOrder.path, { ...order, agree: true, signCode: code });
    expect([reused.status, reused.msg]).toEqual([400, ContractMsg.badCode]);
    await online.wx.pay(o.orderNo);
    const paid = await me.ok(memberQueryOrder.path, { orderNo: o.orderNo });
    const c = await me.ok(memberCardContract.path, { mcId: paid.memberCardId });
    expect(c).toMatchObject({ status: 'signed', signMethod: 'sms', signerName: '线上会员' });
    expect(c.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    const file = await me.ok(memberDownloadContract.path, { mcId: paid.memberCardId });
    expect(sha256(Buffer.from(file.pdf, 'base64'))).toBe(c.pdfSha256);
  });

  it('online: an order refused (JSAPI without an openid) leaves the texted code usable for the next', async () => {
    const member = await env().factory.member({ name: '公众号会员' });
    const me = await memberClient(env(), member);
    const code = await codeFor(env(), member.id);
    const order = { productId: online.product.id, agree: true, signCode: code };
    const refused = await me.call(memberCreateOrder.path, { ...order, method: 'wechat_jsapi' });
    expect([refused.status, refused.msg]).toEqual([400, PayMsg.openidNeeded]);
    const o = await me.ok(memberCreateOrder.path, { ...order, method: 'wechat_native' });
    expect(o.orderNo).toBeTruthy();
  });

  it('online: a sale whose seal failed (the font missing) is paid and 已签约; the contract is sealed when first shown', async () => {
    const member = await env().factory.member({ name: '补封会员' });
    const me = await memberClient(env(), member);
    const font = env().app.deps.config.contractFont;
    const fontPath = font.path;
    font.path = '/nonexistent/font.ttc';
    let mcId: number;
    try {
      const o = await me.ok(memberCreateOrder.path, { productId: online.product.id, method: 'wechat_native' });
      await online.wx.pay(o.orderNo);
      mcId = (await me.ok(memberQueryOrder.path, { orderNo: o.orderNo })).memberCardId;
      const row = (await cardContractOf(env().database.db, env().storeId, mcId))!;
      expect([row.signMethod, row.pdfSha256]).toEqual(['sms', null]);
    } finally {
      font.path = fontPath;
    }
    // the desk's view seals it; the member's and the download read the same PDF
    const desk = await manager().ok(queryCardContract.path, { mcId });
    expect(desk).toMatchObject({ status: 'signed', signMethod: 'sms' });
    expect(desk!.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await me.ok(memberCardContract.path, { mcId })).pdfSha256).toBe(desk!.pdfSha256);
    const file = await me.ok(memberDownloadContract.path, { mcId });
    expect(sha256(Buffer.from(file.pdf, 'base64'))).toBe(desk!.pdfSha256);
    const row = (await cardContractOf(env().database.db, env().storeId, mcId))!;
    expect(verifyContract(row, await contractPdf(env().database.db, Number(row.id)))).toEqual([]);
  });

  it('a store that sends no texts: the code is refused with the way to sign at the desk (not the sign-in wording)', async () => {
    const member = await env().factory.member({ name: '无短信会员' });
    const me = await memberClient(env(), member);
    const r = await me.call(memberSendContractCode.path, { productId: online.product.id });
    expect([r.status, r.msg]).toEqual([409, ContractMsg.noSms]);
  });
});

describeEachDb('contracts: 操作日志 of signing', (env) => {
  it('the QR shown, the code texted, the signature (with its hash) and the desk’s download each leave an entry', async () => {
    const sms = await startSmsStandIn(env().app);
    try {
      const desk = env().client;
      await desk.ok(updateSmsSetting.path, sms.setting('tencent', SECRET.tencent));
      const product = await env().factory.cardProduct({ cardName: '日志十次卡', totalCount: 10 });
      const member = await env().factory.member({ name: '日志会员' });
      const { id: mcId } = await desk.ok(insertMemberCard.path, {
        mid: member.id,
        cardId: product.id,
        totalCount: 10,
        expireTime: '2099-12-31',
        payment: { amount: 100000, method: 'cash', remark: null },
      });
      const { url } = await desk.ok(createCardContractLink.path, { mcId });
      const me = await memberClient(env(), member);
      await me.ok(memberCardContract.path, { token: new URL(url).searchParams.get('sign')! });
      await me.ok(memberSendContractCode.path, { mcId });
      const signed = await me.ok(memberSignContract.path, { mcId, agree: true, code: await codeFor(env(), member.id) });
      await desk.ok(downloadCardContract.path, { mcId });
      const entries = await env()
        .database.db.selectFrom('auditLog as l')
        .innerJoin('auditTarget as t', 't.auditId', 'l.id')
        .select(['l.call', 'l.actorKind', 'l.summary'])
        .where('l.storeId', '=', env().storeId)
        .where('t.type', '=', 'card')
        .where('t.refId', '=', mcId)
        .where('l.call', '<>', insertMemberCard.path)
        .orderBy('l.id')
        .execute();
      expect(entries).toEqual([
        {
          call: createCardContractLink.path,
          actorKind: 'staff',
          summary: '出示合同签约二维码，请会员在手机上阅读并签署',
        },
        { call: memberSendContractCode.path, actorKind: 'member', summary: '发送签署合同的短信验证码' },
        {
          call: memberSignContract.path,
          actorKind: 'member',
          summary: `签署合同（扫码签署），PDF SHA-256 ${signed.pdfSha256!.slice(0, 16)}…`,
        },
        { call: downloadCardContract.path, actorKind: 'staff', summary: '下载已签署的合同 PDF' },
      ]);
    } finally {
      await sms.close();
    }
  });
});
