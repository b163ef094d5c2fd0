import {
  addMemberReservation,
  addWaitlist,
  cancelReservationCall,
  memberLogin,
  memberSendCode,
  MemberMsg,
  querySmsSetting,
  SmsMsg,
  updateBookingPolicy,
  updateNotifySetting,
  updateSmsSetting,
  WaitStatus,
} from '@studio/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { fastWorker, waitFor } from '../../../test/outbox.ts';
import { SECRET, startSmsStandIn, type Received } from '../../../test/sms-stand-in.ts';
import { aliyunSignature, tc3Authorization, textsSettled } from './sms.ts';

describe("SMS adapters reproduce each provider's documented example signature", () => {
  it('Tencent Cloud API 3.0 (TC3-HMAC-SHA256): the DescribeInstances example of the signature guide', () => {
    const authorization = tc3Authorization({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
      host: 'cvm.tencentcloudapi.com',
      service: 'cvm',
      contentType: 'application/json; charset=utf-8',
      timestamp: 1551113065,
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
    });
    expect(authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('Aliyun RPC (HMAC-SHA1, SignatureVersion 1.0): the SendSms example of the SMS API guide', () => {
    const { signature } = aliyunSignature(
      {
        AccessKeyId: 'testId',
        Action: 'SendSms',
        Format: 'XML',
        OutId: '123',
        PhoneNumbers: '15300000001',
        RegionId: 'cn-hangzhou',
        SignName: '阿里云短信测试专用',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
        SignatureVersion: '1.0',
        TemplateCode: 'SMS_71390007',
        TemplateParam: '{"customer":"test"}',
        Timestamp: '2017-07-12T02:42:19Z',
        Version: '2017-05-25',
      },
      'testSecret',
      'GET',
    );
    expect(signature).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });
});

describeEachDb('login codes by SMS through the store provider (local stand-ins check the signatures)', (env) => {
  let standIn: Awaited<ReturnType<typeof startSmsStandIn>>;
  let received: Received[] = [];
  let base = '';
  beforeAll(async () => {
    standIn = await startSmsStandIn(env().app);
    received = standIn.received;
    base = standIn.base;
  });
  afterAll(() => standIn.close());
  const setting = (provider: 'tencent' | 'aliyun', secret?: string) => standIn.setting(provider, secret);

  for (const provider of ['tencent', 'aliyun'] as const) {
    it(`${provider}: a member gets a code by SMS and signs in with it; the secret never comes back`, async () => {
      const desk = env().client;
      const m = await env().factory.member();
      await desk.ok(updateSmsSetting.path, setting(provider, SECRET[provider]));
      const shown = await desk.ok(querySmsSetting.path);
      expect(shown).toMatchObject({ provider, secretSet: true });
      expect(JSON.stringify(shown)).not.toContain(SECRET[provider]);
      // saved again without a secret: the stored one stays
      await desk.ok(updateSmsSetting.path, setting(provider));
      const anon = env().anon();
      const before = received.length;
      expect(await anon.call(memberSendCode.path, { storeId: env().storeId, mobile: m.mobile })).toMatchObject({
        code: 0,
        data: null,
      });
      await textsSettled();
      expect(received.length).toBe(before + 1);
      const got = received.at(-1)!;
      expect(got).toMatchObject({ provider, signatureOk: true });
      expect(got.mobile).toBe(provider === 'tencent' ? `+86${m.mobile}` : m.mobile);
      expect(got.code).toMatch(/^\d{6}$/);
      const login = await anon.call(memberLogin.path, { storeId: env().storeId, mobile: m.mobile, code: got.code });
      expect(login.code, login.msg).toBe(0);
    });
  }

  /** Books a card into a session at the desk; answers the booking. */
  async function book(tid: number, mcId: number) {
    await env().client.ok(addMemberReservation.path, { mcId, tid, studentCount: 1, remark: '' });
    return env()
      .database.db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', tid)
      .where('memberCardId', '=', mcId)
      .executeTakeFirstOrThrow();
  }

  for (const provider of ['tencent', 'aliyun'] as const) {
    it(`${provider}: a member promoted from the waitlist gets a text message after the commit, once`, async () => {
      const desk = env().client;
      await desk.ok(updateSmsSetting.path, {
        ...setting(provider, SECRET[provider]),
        promotionTemplateId: provider === 'tencent' ? '7654321' : 'SMS_PROMO',
      });
      expect(await desk.ok(querySmsSetting.path)).toMatchObject({
        promotionTemplateId: provider === 'tencent' ? '7654321' : 'SMS_PROMO',
      });
      await desk.ok(updateBookingPolicy.path, { waitlist: 1 });
      // A promotion is a reminder (features/reminders): sent at once whatever the time of day here.
      await desk.ok(updateNotifySetting.path, {
        classReminderHours: 2,
        quietFrom: '00:00',
        quietTo: '00:00',
        wechat: { appId: '', templates: [] },
        sms: { templates: [] },
      });
      const e = new EngineFactory(env().factory);
      const s = await e.scene({ product: { perCount: 1, cardType: 2 }, course: { name: '晨间流瑜伽' } });
      const session = await e.session({
        courseId: s.course.id,
        teacherId: s.teacher.id,
        reservableCount: 1,
        startTime: `${FUTURE} 09:30:00`,
      });
      const holder = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
      const waiter = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
      const booked = await book(session.id, holder.card.id);
      await desk.ok(addWaitlist.path, {
        mid: waiter.member.id,
        mcId: waiter.card.id,
        tid: session.id,
        studentCount: 1,
      });
      const before = received.length;
      const rows = () =>
        env().database.db.selectFrom('outbox').selectAll().where('topic', '=', 'notify.send').execute();
      const queued = (await rows()).length;
      await desk.ok(cancelReservationCall.path, { id: booked.id });
      expect((await rows()).length).toBe(queued + 1);
      const stop = fastWorker(env().app.deps, { allow: new URL(base).host });
      try {
        await waitFor(async () => received.length > before, 'the promotion SMS');
        await waitFor(
          async () => (await rows()).every((r) => r.sentAt !== null || r.deadAt !== null),
          'the outbox row marked sent',
        );
      } finally {
        await stop();
      }
      expect(received.length).toBe(before + 1);
      const got = received.at(-1)!;
      expect(got).toMatchObject({
        provider,
        signatureOk: true,
        templateId: provider === 'tencent' ? '7654321' : 'SMS_PROMO',
      });
      expect(got.mobile).toBe(provider === 'tencent' ? `+86${waiter.member.mobile}` : waiter.member.mobile);
      const time = `${FUTURE.slice(5)} 09:30`;
      expect(got.params).toEqual(provider === 'tencent' ? ['晨间流瑜伽', time] : { course: '晨间流瑜伽', time });
      await desk.ok(updateBookingPolicy.path, { waitlist: 0 });
    });
  }

  it('no promotion template: a promotion queues no text message', async () => {
    const desk = env().client;
    await desk.ok(updateSmsSetting.path, setting('tencent', SECRET.tencent));
    await desk.ok(updateBookingPolicy.path, { waitlist: 1 });
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, reservableCount: 1 });
    const holder = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    const waiter = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    const booked = await book(session.id, holder.card.id);
    await desk.ok(addWaitlist.path, { mid: waiter.member.id, mcId: waiter.card.id, tid: session.id, studentCount: 1 });
    const count = async () =>
      (await env().database.db.selectFrom('outbox').select('id').where('topic', '=', 'sms.notice').execute()).length;
    const queued = await count();
    await desk.ok(cancelReservationCall.path, { id: booked.id });
    expect(await count()).toBe(queued);
    const w = await env()
      .database.db.selectFrom('waitlist')
      .select('status')
      .where('memberId', '=', waiter.member.id)
      .executeTakeFirstOrThrow();
    expect(w.status).toBe(WaitStatus.PROMOTED);
    await desk.ok(updateBookingPolicy.path, { waitlist: 0 });
  });

  it('a provider refusal answers the same (the text is not sent, nothing told); no provider is a 409; bad settings a 400', async () => {
    const desk = env().client;
    const anon = env().anon();
    const m = await env().factory.member();
    await desk.ok(updateSmsSetting.path, setting('tencent', 'not-the-secret'));
    const before = received.length;
    const a = await anon.call(memberSendCode.path, { storeId: env().storeId, mobile: m.mobile });
    expect([a.status, a.code]).toEqual([200, 0]);
    await textsSettled();
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)!.signatureOk).toBe(false);
    // a mobile that is nobody's answers exactly as a member's, and no text goes out
    const unknown = await anon.call(memberSendCode.path, { storeId: env().storeId, mobile: '19900000000' });
    expect(unknown).toEqual(a);
    await textsSettled();
    expect(received.length).toBe(before + 1);
    const bad = await desk.call(updateSmsSetting.path, { ...setting('tencent'), appId: '', secret: 'x' });
    expect([bad.status, bad.msg]).toEqual([400, SmsMsg.appId]);
    const cap = await desk.call(updateSmsSetting.path, { ...setting('tencent'), dailyCap: 0 });
    expect([cap.status, cap.msg]).toEqual([400, SmsMsg.dailyCap]);
    await desk.ok(updateSmsSetting.path, { ...setting('aliyun'), provider: 'none' });
    const none = await anon.call(memberSendCode.path, { storeId: env().storeId, mobile: m.mobile });
    expect([none.status, none.msg]).toEqual([409, MemberMsg.noProvider]);
  });
});
