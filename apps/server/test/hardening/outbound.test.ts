// Requests the server sends (SSRF): one gate, lib/outbound.ts, at save time and again at send time.
import crypto from 'node:crypto';
import { Msg, saveWechatSetting, queryWechatSetting } from '@studio/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { saveWechatSetting as storeSetting } from '../../src/features/store-admin/settings-service.ts';
import { checkOutboundUrl, isBlockedAddress, parseAllowHosts } from '../../src/lib/outbound.ts';
import { enqueue } from '../../src/outbox/enqueue.ts';
import { fastWorker, Receiver, waitFor } from '../outbox.ts';
import { WECOM_TOPIC } from '../../src/features/messaging/public.ts';
import { Client, describeEachDb } from '../harness.ts';

/** Every spelling of an address the server must not reach, as a webhook URL (the list and more). */
const REFUSED: [string, string][] = [
  ['http://169.254.169.254/latest/meta-data/', Msg.outboundBlocked], // cloud metadata, link-local
  ['http://[::1]:5432/', Msg.outboundBlocked],
  ['http://2130706433:3999/', Msg.outboundBlocked], // decimal 127.0.0.1
  ['http://0x7f000001:3999/', Msg.outboundBlocked], // hex
  ['http://0177.0.0.1:3999/', Msg.outboundBlocked], // octal
  ['http://0x7f.1/', Msg.outboundBlocked], // mixed short form
  ['http://127.1/', Msg.outboundBlocked],
  ['http://0.0.0.0:22/', Msg.outboundBlocked], // unspecified
  ['http://[::]:22/', Msg.outboundBlocked],
  ['http://localhost:5432/', Msg.outboundBlocked], // a name: refused after DNS resolution
  ['http://10.0.0.1/', Msg.outboundBlocked],
  ['http://172.16.5.4/', Msg.outboundBlocked],
  ['http://192.168.1.1/', Msg.outboundBlocked],
  ['http://100.64.0.1/', Msg.outboundBlocked], // shared address space
  ['http://224.0.0.1/', Msg.outboundBlocked], // multicast
  ['http://255.255.255.255/', Msg.outboundBlocked],
  ['http://[fe80::1]/', Msg.outboundBlocked], // link-local
  ['http://[fd00::1]/', Msg.outboundBlocked], // unique local
  ['http://[ff02::1]/', Msg.outboundBlocked], // multicast
  ['http://[::ffff:127.0.0.1]:3999/', Msg.outboundBlocked], // IPv4-mapped
  ['http://[::ffff:a9fe:a9fe]/', Msg.outboundBlocked], // IPv4-mapped 169.254.169.254, hex
  ['http://[::127.0.0.1]/', Msg.outboundBlocked], // IPv4-compatible
  ['http://[64:ff9b::a00:1]/', Msg.outboundBlocked], // NAT64 of 10.0.0.1
  ['http://[2002:7f00:1::]/', Msg.outboundBlocked], // 6to4 of 127.0.0.1
  ['http://user:pw@hooks.example.com/x', Msg.outboundCredentials],
  ['https://token@hooks.example.com/x', Msg.outboundCredentials],
];

describe('the outbound address classes', () => {
  it('blocks internal and reserved addresses and lets public ones pass', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '::1', '::ffff:10.0.0.1', 'fe80::abcd', '0.0.0.0', '239.1.1.1']) {
      expect(isBlockedAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '101.226.0.1', '2400:da00::6666', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1']) {
      expect(isBlockedAddress(a), a).toBe(false);
    }
  });

  it('allow-list entries: a host with its port, or any port of a host', () => {
    const allow = parseAllowHosts('127.0.0.1:3999, relay.lan, [::1]:8080');
    expect(checkOutboundUrl('http://127.0.0.1:3999/x', allow).allowed).toBe(true);
    expect(() => checkOutboundUrl('http://127.0.0.1:3998/x', allow)).toThrow(Msg.outboundBlocked);
    expect(checkOutboundUrl('https://relay.lan:8443/x', allow).allowed).toBe(true);
    expect(checkOutboundUrl('http://[::1]:8080/', allow).allowed).toBe(true);
    expect(() => checkOutboundUrl('http://[::1]:8081/', allow)).toThrow(Msg.outboundBlocked);
    expect(() => parseAllowHosts('[bad')).toThrow('OUTBOUND_ALLOW_HOSTS');
  });
});

describeEachDb('requests the server sends', (env) => {
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('refuses to save a webhook to any internal address or with credentials, keeping the saved one', async () => {
    const c = env().client;
    await c.ok(saveWechatSetting.path, { webhookUrl: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k' });
    const before = await c.ok(queryWechatSetting.path);
    for (const [url, msg] of REFUSED) {
      const a = await c.call(saveWechatSetting.path, { webhookUrl: url });
      expect([a.status, a.msg], url).toEqual([400, msg]);
    }
    expect(await c.ok(queryWechatSetting.path)).toEqual(before);
  });

  it('OUTBOUND_ALLOW_HOSTS lets the operator name an internal host and port', async () => {
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_ALLOW_HOSTS: '127.0.0.1:3999' } as NodeJS.ProcessEnv),
      webDist: '/nonexistent',
    };
    const app = await buildApp({ config, database: env().database, logger: false });
    try {
      const c = new Client(app);
      c.cookie = env().client.cookie;
      expect((await c.call(saveWechatSetting.path, { webhookUrl: 'http://127.0.0.1:3999/hook' })).code).toBe(0);
      const other = await c.call(saveWechatSetting.path, { webhookUrl: 'http://127.0.0.1:3998/hook' });
      expect([other.status, other.msg]).toEqual([400, Msg.outboundBlocked]);
    } finally {
      await app.close();
    }
  });

  /** Stores `url` as the webhook without the save-time gate (a value saved before it), queues one message and runs a worker. */
  async function sendTo(url: string, allow?: string) {
    const { database, storeId } = env();
    await storeSetting(database.db, env().app.deps.events, storeId, { webhookUrl: url });
    const tag = crypto.randomBytes(4).toString('hex');
    await database.db
      .transaction()
      .execute((tx) => enqueue(tx, storeId, WECOM_TOPIC, `ssrf-${tag}`, { msgtype: 'text', text: { content: tag } }));
    const stop = fastWorker(env().app.deps, { allow });
    try {
      return await waitFor(async () => {
        const row = await database.db
          .selectFrom('outbox')
          .selectAll()
          .where('orderKey', '=', `ssrf-${tag}`)
          .executeTakeFirst();
        return row && (row.sentAt !== null || row.deadAt !== null) ? row : undefined;
      }, `the message to ${url} sent or given up`);
    } finally {
      await stop();
    }
  }

  it('refuses again at send time, after DNS resolution: the receiver on 127.0.0.1 gets nothing', async () => {
    const p = receiver.port;
    const before = receiver.attempts;
    for (const url of [
      `http://127.0.0.1:${p}/hook`,
      `http://localhost:${p}/hook`, // only DNS says this is loopback
      `http://2130706433:${p}/hook`,
      `http://[::ffff:127.0.0.1]:${p}/hook`,
    ]) {
      const row = await sendTo(url);
      expect([row.sentAt, row.lastError], url).toEqual([null, Msg.outboundBlocked]);
    }
    expect(receiver.attempts).toBe(before);
    // The same message to the same receiver goes through once the operator allows it.
    const allowed = await sendTo(`http://127.0.0.1:${p}/hook`, receiver.allowHost);
    expect(allowed.sentAt).not.toBeNull();
    expect(receiver.attempts).toBe(before + 1);
  });
});
