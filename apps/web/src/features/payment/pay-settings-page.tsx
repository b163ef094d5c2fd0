import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Msg, PayMsg, WECHAT_KEY_MODE_LABEL, type PaySetting } from '@studio/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
  type FormInstance,
  type FormRule,
} from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { toFen, yuan } from '../../shared/format.ts';
import { usePaySetting, useSavePaySetting, useTestPayConnection, type PaySettingFields } from './hooks.ts';

type Provider = 'wechat' | 'alipay';

interface Values {
  wechat: {
    enabled: boolean;
    mchId?: string;
    appId?: string;
    appSecret?: string;
    serialNo?: string;
    apiV3Key?: string;
    privateKey?: string;
    platformPublicKeyId?: string;
    platformPublicKey?: string;
    platformCertificates?: string;
    removePlatformCertificates?: boolean;
    baseUrl?: string;
    oauthBaseUrl?: string;
  };
  alipay: {
    enabled: boolean;
    appId?: string;
    sellerId?: string;
    privateKey?: string;
    alipayPublicKey?: string;
    gateway?: string;
  };
  /** 元 on the screen, fen on the wire. */
  topupAmounts: (number | null)[];
}

const MAX_TOPUPS = 10;
const PEM = /-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----/;
/** A key pasted as PEM or as the bare base64 Alipay's key tool gives. */
const pemOrBase64 = (v: string) =>
  PEM.test(v) || /^[A-Za-z0-9+/=\s]+$/.test(v.replace(/-----(BEGIN|END) [A-Z ]+-----/g, ''));

/** The form's values of a saved setting: secrets empty (left empty, they are kept). */
function valuesOf(s: PaySetting): Values {
  return {
    wechat: {
      enabled: s.wechat.enabled,
      mchId: s.wechat.mchId,
      appId: s.wechat.appId,
      serialNo: s.wechat.serialNo,
      platformPublicKeyId: s.wechat.platformPublicKeyId,
      baseUrl: s.wechat.baseUrl,
      oauthBaseUrl: s.wechat.oauthBaseUrl,
      appSecret: '',
      apiV3Key: '',
      privateKey: '',
      platformPublicKey: '',
      platformCertificates: '',
      removePlatformCertificates: false,
    },
    alipay: {
      enabled: s.alipay.enabled,
      appId: s.alipay.appId,
      sellerId: s.alipay.sellerId,
      gateway: s.alipay.gateway,
      privateKey: '',
      alipayPublicKey: '',
    },
    topupAmounts: s.topupAmounts.map((fen) => Number(yuan(fen))),
  };
}

/** What is sent: every text trimmed, empty secrets left out (kept), amounts in fen. */
function requestOf(v: Values): PaySettingFields {
  const secret = (s: string | undefined) => s?.trim() || undefined;
  const text = (s: string | undefined) => s?.trim() ?? '';
  const w = v.wechat;
  const a = v.alipay;
  return {
    wechat: {
      enabled: w.enabled,
      mchId: text(w.mchId),
      appId: text(w.appId),
      serialNo: text(w.serialNo),
      platformPublicKeyId: text(w.platformPublicKeyId),
      baseUrl: text(w.baseUrl),
      oauthBaseUrl: text(w.oauthBaseUrl),
      appSecret: secret(w.appSecret),
      apiV3Key: secret(w.apiV3Key),
      privateKey: secret(w.privateKey),
      platformPublicKey: secret(w.platformPublicKey),
      platformCertificates: secret(w.platformCertificates),
      removePlatformCertificates: w.removePlatformCertificates || undefined,
    },
    alipay: {
      enabled: a.enabled,
      appId: text(a.appId),
      sellerId: text(a.sellerId),
      gateway: text(a.gateway),
      privateKey: secret(a.privateKey),
      alipayPublicKey: secret(a.alipayPublicKey),
    },
    topupAmounts: v.topupAmounts.filter((n): n is number => n != null).map(toFen),
  };
}

const maxLen = (max: number): FormRule => ({ max, message: `内容不能超过${max}个字符` });
const url: FormRule = { pattern: /^https?:\/\/\S+$/, message: Msg.outboundUrl };

/**
 * A field the provider cannot work without: required once the provider is switched on (a secret
 * already saved may be left empty), then `check` on what was typed (its message, or null).
 */
function needed(
  provider: Provider,
  label: string,
  savedSecret = false,
  check?: (v: string) => string | null,
): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_, value: string | undefined) => {
      const v = value?.trim() ?? '';
      if (!v) {
        if (getFieldValue([provider, 'enabled']) && !savedSecret) throw new Error(PayMsg.missing(label));
        return;
      }
      const problem = check?.(v);
      if (problem) throw new Error(problem);
    },
  });
}

/** A secret's label: its name, and 已设置 once the server holds one. */
function secretLabel(name: string, set: boolean): ReactNode {
  return (
    <Space size={6}>
      {name}
      {set && <Tag color="success">已设置</Tag>}
    </Space>
  );
}

const keptHint = (set: boolean) => (set ? '已设置（留空则保持不变）' : undefined);
const mono = { fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 12 };

/**
 * 在线收款 (店长): the store's WeChat Pay (API v3) and Alipay accounts, the amounts members may top
 * up their money cards by, and 测试连接 per provider. Secrets are never shown again: each says
 * 已设置, and a field left empty keeps it. Everything is checked here, in the server's words, before
 * it is sent.
 */
export default function PaySettingsPage() {
  const q = usePaySetting();
  const save = useSavePaySetting();
  const [form] = Form.useForm<Values>();
  const s = q.data;
  // The saved setting, once read and after each save (secrets empty again, nothing left unsaved).
  useEffect(() => {
    if (s) form.resetFields();
  }, [s, form]);

  if (!s)
    return (
      <Card title="在线收款">
        <Skeleton active />
      </Card>
    );

  /** Validates and saves; answers whether it was saved. */
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return false;
    return Boolean(await save.run(requestOf(v)));
  };

  return (
    <Form<Values> form={form} name="pay" layout="vertical" initialValues={valuesOf(s)}>
      <Row gutter={16}>
        <Col span={12}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <WechatCard setting={s} form={form} submit={submit} />
          </Space>
        </Col>
        <Col span={12}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <AlipayCard setting={s} form={form} submit={submit} />
            <TopupCard />
            <Card size="small">
              <Space direction="vertical">
                <Button type="primary" loading={save.loading} onClick={() => void submit()} data-testid="pay-save">
                  保存
                </Button>
                <Typography.Text type="secondary">
                  密钥保存后不再显示，只显示“已设置”；留空则保持原来的密钥。会员在手机上购卡、充值时，按这里开启的渠道付款。
                </Typography.Text>
              </Space>
            </Card>
          </Space>
        </Col>
      </Row>
    </Form>
  );
}

interface CardProps {
  setting: PaySetting;
  form: FormInstance<Values>;
  /** Saves the whole form first (测试连接 tests what is saved). */
  submit: () => Promise<boolean>;
}

/**
 * 测试连接: saves unsaved changes, then asks the provider about an order nobody made; the answer is
 * shown under the button in words.
 */
function TestButton({ provider, form, submit }: { provider: Provider } & Omit<CardProps, 'setting'>) {
  const [answer, setAnswer] = useState<{ ok: boolean; message: string } | null>(null);
  const test = useTestPayConnection((e) => setAnswer({ ok: false, message: e.message }));
  const run = async () => {
    setAnswer(null);
    if (form.isFieldsTouched() && !(await submit())) return;
    const r = await test.run(provider);
    if (r) setAnswer(r.data);
  };
  return (
    <div style={{ marginBottom: 12 }}>
      <Button onClick={() => void run()} loading={test.loading} data-testid={`pay-test-${provider}`}>
        测试连接
      </Button>
      <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
        用一个不存在的订单号向{provider === 'wechat' ? '微信支付' : '支付宝'}
        查询，验证密钥是否可用（有未保存的修改时先保存）
      </Typography.Text>
      {answer && (
        <Alert
          style={{ marginTop: 8 }}
          showIcon
          type={answer.ok ? 'success' : 'error'}
          message={answer.message}
          data-testid={`pay-test-result-${provider}`}
        />
      )}
    </div>
  );
}

/** Which of WeChat Pay's keys verify its answers and notifications, and the certificates kept. */
function KeyMode({ setting }: { setting: PaySetting }) {
  const w = setting.wechat;
  return (
    <Alert
      style={{ marginBottom: 12 }}
      type={w.keyMode === 'none' ? 'warning' : 'info'}
      showIcon
      data-testid="pay-wechat-key-mode"
      message={`验签方式：${WECHAT_KEY_MODE_LABEL[w.keyMode]}`}
      description={
        w.keyMode === 'none' ? (
          '请填写微信支付公钥及其 ID，或平台证书'
        ) : (
          <Space direction="vertical" size={0}>
            {w.keyMode !== 'certificate' && <span>微信支付公钥 ID：{w.platformPublicKeyId}</span>}
            {w.platformCertificates.map((c) => (
              <span key={c.serialNo}>
                平台证书 {c.serialNo}（有效期至 {c.expiresAt}）
              </span>
            ))}
          </Space>
        )
      }
    />
  );
}

function WechatCard({ setting, form, submit }: CardProps) {
  const sec = setting.wechat.secrets;
  const on = Form.useWatch(['wechat', 'enabled'], form) ?? setting.wechat.enabled;
  const dep = [['wechat', 'enabled']];
  return (
    <Card title="微信支付" size="small" data-testid="pay-wechat">
      <Form.Item
        label="启用微信支付"
        name={['wechat', 'enabled']}
        valuePropName="checked"
        extra="开启后，会员可在手机上用微信付款（微信内直接支付，其他浏览器扫码支付）。"
      >
        <Switch />
      </Form.Item>
      {on && <TestButton provider="wechat" form={form} submit={submit} />}
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item
            label="商户号"
            name={['wechat', 'mchId']}
            dependencies={dep}
            rules={[needed('wechat', '商户号'), maxLen(32)]}
          >
            <Input autoComplete="off" placeholder="1900000000" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="AppID"
            name={['wechat', 'appId']}
            dependencies={dep}
            rules={[needed('wechat', 'AppID'), maxLen(32)]}
            extra="与商户号绑定的公众号 AppID"
          >
            <Input autoComplete="off" placeholder="wx..." />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="商户证书序列号"
        name={['wechat', 'serialNo']}
        dependencies={dep}
        rules={[needed('wechat', '商户证书序列号'), maxLen(64)]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        label={secretLabel('APIv3 密钥', sec.apiV3Key)}
        name={['wechat', 'apiV3Key']}
        dependencies={dep}
        rules={[
          needed('wechat', 'APIv3 密钥', sec.apiV3Key, (v) =>
            new TextEncoder().encode(v).length === 32 ? null : PayMsg.apiV3Key,
          ),
          maxLen(64),
        ]}
      >
        <Input.Password autoComplete="new-password" placeholder={keptHint(sec.apiV3Key)} />
      </Form.Item>
      <Form.Item
        label={secretLabel('商户 API 私钥', sec.privateKey)}
        name={['wechat', 'privateKey']}
        dependencies={dep}
        rules={[
          needed('wechat', '商户 API 私钥', sec.privateKey, (v) =>
            /-----BEGIN (RSA )?PRIVATE KEY-----/.test(v) && PEM.test(v) ? null : PayMsg.merchantKey,
          ),
          maxLen(8000),
        ]}
        extra="粘贴 apiclient_key.pem 的全部内容"
      >
        <Input.TextArea
          rows={3}
          spellCheck={false}
          autoComplete="off"
          style={mono}
          placeholder={keptHint(sec.privateKey) ?? '-----BEGIN PRIVATE KEY-----'}
        />
      </Form.Item>
      <KeyMode setting={setting} />
      <Form.Item
        label="微信支付公钥 ID"
        name={['wechat', 'platformPublicKeyId']}
        dependencies={[...dep, ['wechat', 'platformPublicKey']]}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_, value: string | undefined) => {
              const typedKey = String(getFieldValue(['wechat', 'platformPublicKey']) ?? '').trim();
              if (!value?.trim() && getFieldValue(['wechat', 'enabled']) && (typedKey || sec.platformPublicKey))
                throw new Error(PayMsg.missing('微信支付公钥 ID'));
            },
          }),
          maxLen(64),
        ]}
      >
        <Input autoComplete="off" placeholder="PUB_KEY_ID_..." />
      </Form.Item>
      <Form.Item
        label={secretLabel('微信支付公钥', sec.platformPublicKey)}
        name={['wechat', 'platformPublicKey']}
        dependencies={dep}
        rules={[needed('wechat', '微信支付公钥', true, (v) => (PEM.test(v) ? null : PayMsg.platformKey)), maxLen(8000)]}
        extra="商户平台“API安全”中下载的微信支付公钥（pub_key.pem）；新商户只有它"
      >
        <Input.TextArea
          rows={3}
          spellCheck={false}
          autoComplete="off"
          style={mono}
          placeholder={keptHint(sec.platformPublicKey) ?? '-----BEGIN PUBLIC KEY-----'}
        />
      </Form.Item>
      <Form.Item
        label={secretLabel('微信支付平台证书', setting.wechat.platformCertificates.length > 0)}
        name={['wechat', 'platformCertificates']}
        dependencies={[...dep, ['wechat', 'platformPublicKey'], ['wechat', 'platformPublicKeyId']]}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_, value: string | undefined) => {
              const v = value?.trim() ?? '';
              if (v && !/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(v))
                throw new Error(PayMsg.platformCertificate);
              const typedKey = String(getFieldValue(['wechat', 'platformPublicKey']) ?? '').trim();
              const hasKey = typedKey || sec.platformPublicKey;
              const hasCert = v || setting.wechat.platformCertificates.length > 0;
              if (getFieldValue(['wechat', 'enabled']) && !hasKey && !hasCert)
                throw new Error(PayMsg.platformKeyNeeded);
            },
          }),
          maxLen(20000),
        ]}
        extra="较早开通的商户用平台证书验签；从平台证书切换到微信支付公钥期间，公钥和证书都要填（微信支付会用其中任一个签名）"
      >
        <Input.TextArea
          rows={3}
          spellCheck={false}
          autoComplete="off"
          style={mono}
          placeholder={
            setting.wechat.platformCertificates.length ? '已设置（留空则保持不变）' : '-----BEGIN CERTIFICATE-----'
          }
        />
      </Form.Item>
      {setting.wechat.platformCertificates.length > 0 && setting.wechat.keyMode === 'switching' && (
        <Form.Item name={['wechat', 'removePlatformCertificates']} valuePropName="checked">
          <Checkbox>切换已完成，删除平台证书（之后只用微信支付公钥验签）</Checkbox>
        </Form.Item>
      )}
      <Form.Item
        label={secretLabel('AppSecret（可不填）', sec.appSecret)}
        name={['wechat', 'appSecret']}
        rules={[maxLen(64)]}
        extra="公众号的 AppSecret：会员在微信内直接支付时，用它取得会员的微信身份；不填则微信内也用扫码支付。"
      >
        <Input.Password autoComplete="new-password" placeholder={keptHint(sec.appSecret)} />
      </Form.Item>
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item label="接口地址（一般不填）" name={['wechat', 'baseUrl']} rules={[url, maxLen(300)]}>
            <Input autoComplete="off" placeholder="https://api.mch.weixin.qq.com" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="网页授权地址（一般不填）" name={['wechat', 'oauthBaseUrl']} rules={[url, maxLen(300)]}>
            <Input autoComplete="off" placeholder="https://api.weixin.qq.com" />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

function AlipayCard({ setting, form, submit }: CardProps) {
  const sec = setting.alipay.secrets;
  const on = Form.useWatch(['alipay', 'enabled'], form) ?? setting.alipay.enabled;
  const dep = [['alipay', 'enabled']];
  return (
    <Card title="支付宝" size="small" data-testid="pay-alipay">
      <Form.Item
        label="启用支付宝"
        name={['alipay', 'enabled']}
        valuePropName="checked"
        extra="开启后，会员可在手机浏览器中跳转支付宝付款（签名方式 RSA2）。"
      >
        <Switch />
      </Form.Item>
      {on && <TestButton provider="alipay" form={form} submit={submit} />}
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item
            label="AppID"
            name={['alipay', 'appId']}
            dependencies={dep}
            rules={[needed('alipay', 'AppID'), maxLen(32)]}
          >
            <Input autoComplete="off" placeholder="2021..." />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="商户 PID（可不填）"
            name={['alipay', 'sellerId']}
            rules={[maxLen(32)]}
            extra="2088 开头；填写后只接受付给这个商户的通知"
          >
            <Input autoComplete="off" placeholder="2088..." />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label={secretLabel('应用私钥', sec.privateKey)}
        name={['alipay', 'privateKey']}
        dependencies={dep}
        rules={[
          needed('alipay', '应用私钥', sec.privateKey, (v) => (pemOrBase64(v) ? null : PayMsg.alipayPrivateKey)),
          maxLen(8000),
        ]}
      >
        <Input.TextArea
          rows={3}
          spellCheck={false}
          autoComplete="off"
          style={mono}
          placeholder={keptHint(sec.privateKey) ?? 'MIIEv... 或 -----BEGIN PRIVATE KEY-----'}
        />
      </Form.Item>
      <Form.Item
        label={secretLabel('支付宝公钥', sec.alipayPublicKey)}
        name={['alipay', 'alipayPublicKey']}
        dependencies={dep}
        rules={[
          needed('alipay', '支付宝公钥', sec.alipayPublicKey, (v) => (pemOrBase64(v) ? null : PayMsg.alipayPublicKey)),
          maxLen(8000),
        ]}
        extra="开放平台“接口加签方式”中的支付宝公钥（不是应用公钥）"
      >
        <Input.TextArea
          rows={3}
          spellCheck={false}
          autoComplete="off"
          style={mono}
          placeholder={keptHint(sec.alipayPublicKey) ?? 'MIIBI... 或 -----BEGIN PUBLIC KEY-----'}
        />
      </Form.Item>
      <Form.Item label="网关地址（一般不填）" name={['alipay', 'gateway']} rules={[url, maxLen(300)]}>
        <Input autoComplete="off" placeholder="https://openapi.alipay.com/gateway.do" />
      </Form.Item>
    </Card>
  );
}

/** 充值金额: what members may top up a money card by, in 元 (at most 10, each different). */
function TopupCard() {
  return (
    <Card title="充值金额" size="small" data-testid="pay-topups">
      <Typography.Paragraph type="secondary">
        会员可在手机上给自己的储值卡充值这些金额（最多 {MAX_TOPUPS} 个）。不填则不开放线上充值。
      </Typography.Paragraph>
      <Form.List name="topupAmounts">
        {(fields, { add, remove }) => (
          <Space wrap align="start">
            {fields.map((f, i) => (
              <Space key={f.key} align="start" size={4}>
                <Form.Item
                  name={f.name}
                  style={{ marginBottom: 8 }}
                  rules={[
                    { required: true, message: '请填写充值金额' },
                    { type: 'number', min: 0.01, message: '充值金额应大于 0 元' },
                    ({ getFieldValue }) => ({
                      validator: async (_, v: number | null) => {
                        const all = getFieldValue('topupAmounts') as (number | null)[];
                        if (v != null && all.findIndex((x) => x === v) !== i) throw new Error('充值金额不能重复');
                      },
                    }),
                  ]}
                >
                  <InputNumber
                    min={0.01}
                    max={100_000_000}
                    precision={2}
                    suffix="元"
                    style={{ width: 150 }}
                    aria-label={`充值金额 ${i + 1}`}
                  />
                </Form.Item>
                <Button
                  type="text"
                  aria-label={`删除充值金额 ${i + 1}`}
                  icon={<MinusCircleOutlined />}
                  onClick={() => remove(f.name)}
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={fields.length >= MAX_TOPUPS}
              onClick={() => add(null)}
              data-testid="pay-topup-add"
            >
              添加金额
            </Button>
          </Space>
        )}
      </Form.List>
    </Card>
  );
}
