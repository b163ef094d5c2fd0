import {
  fillVars,
  NOTIFY_KIND_LABEL,
  NOTIFY_KINDS,
  NOTIFY_SAMPLE,
  NOTIFY_TEXT,
  NOTIFY_VAR_LABEL,
  NOTIFY_VARS,
  NotifyMsg,
  type NotifyKind,
  type NotifySetting,
} from '@studio/contract';
import { App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from '../../shared/router.tsx';
import { useNotifySetting, useSaveNotifySetting, useSendNotifyTest } from './hooks.ts';

interface KindFields {
  wxTemplateId?: string;
  wxFields?: { key: string; value: string }[];
  smsTemplateId?: string;
  smsParams?: string[];
}
interface Values {
  classReminderHours: number;
  quietFrom: string;
  quietTo: string;
  appId: string;
  appSecret?: string;
  baseUrl: string;
  authorizeBaseUrl: string;
  kinds: Record<NotifyKind, KindFields>;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function toValues(s: NotifySetting): Values {
  const kinds = {} as Record<NotifyKind, KindFields>;
  for (const kind of NOTIFY_KINDS) {
    const wx = s.wechat.templates.find((t) => t.kind === kind);
    const sms = s.sms.templates.find((t) => t.kind === kind);
    kinds[kind] = {
      wxTemplateId: wx?.templateId ?? '',
      wxFields: wx?.fields ?? [],
      smsTemplateId: sms?.templateId ?? '',
      smsParams: sms?.params ?? [],
    };
  }
  return {
    classReminderHours: s.classReminderHours,
    quietFrom: s.quietFrom,
    quietTo: s.quietTo,
    appId: s.wechat.appId,
    appSecret: '',
    baseUrl: s.wechat.baseUrl,
    authorizeBaseUrl: s.wechat.authorizeBaseUrl,
    kinds,
  };
}

/**
 * 门店设置 → 消息提醒 (店长): when class reminders go, the quiet hours, the WeChat service account
 * (服务号) and, per kind of reminder, its WeChat template (fields filled with the kind's variables)
 * and SMS template (the variables in order); a preview with sample values and 发送测试.
 */
export default function NotifySettingsPage() {
  const q = useNotifySetting();
  const save = useSaveNotifySetting();
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (q.data) form.setFieldsValue(toValues(q.data));
  }, [q.data, form]);
  if (!q.data) return <Skeleton active />;
  const s = q.data;
  const onFinish = (v: Values) =>
    void save.run({
      classReminderHours: v.classReminderHours,
      quietFrom: v.quietFrom,
      quietTo: v.quietTo,
      wechat: {
        appId: v.appId?.trim() ?? '',
        appSecret: v.appSecret || undefined,
        baseUrl: v.baseUrl?.trim() ?? '',
        authorizeBaseUrl: v.authorizeBaseUrl?.trim() ?? '',
        templates: NOTIFY_KINDS.filter((k) => v.kinds[k]?.wxTemplateId?.trim()).map((kind) => ({
          kind,
          templateId: v.kinds[kind].wxTemplateId!.trim(),
          fields: (v.kinds[kind].wxFields ?? []).filter((f) => f?.key),
        })),
      },
      sms: {
        templates: NOTIFY_KINDS.filter((k) => v.kinds[k]?.smsTemplateId?.trim()).map((kind) => ({
          kind,
          templateId: v.kinds[kind].smsTemplateId!.trim(),
          params: v.kinds[kind].smsParams ?? [],
        })),
      },
    });
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} initialValues={toValues(s)} data-testid="notify-form">
      <Row gutter={16}>
        <Col span={12}>
          <Card title="发送规则" size="small" extra={<Link to="/notify/log">消息记录</Link>}>
            <Form.Item
              name="classReminderHours"
              label="上课提醒（课前几小时）"
              rules={[{ required: true, message: NotifyMsg.hours }]}
            >
              <InputNumber min={1} max={48} addonAfter="小时" />
            </Form.Item>
            <Space>
              <Form.Item name="quietFrom" label="免打扰开始" rules={[{ pattern: HHMM, message: NotifyMsg.quiet }]}>
                <Input style={{ width: 100 }} placeholder="22:00" />
              </Form.Item>
              <Form.Item name="quietTo" label="免打扰结束" rules={[{ pattern: HHMM, message: NotifyMsg.quiet }]}>
                <Input style={{ width: 100 }} placeholder="08:00" />
              </Form.Item>
            </Space>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              免打扰时段内不发送，到结束时间再发；到结束时课程已开始的提醒不再发送，消息记录中注明原因。会员可在手机上“我的
              → 消息提醒”关闭某类提醒。
            </Typography.Paragraph>
          </Card>
        </Col>
        <Col span={12}>
          <Card title="微信公众号（服务号）" size="small">
            <Form.Item name="appId" label="AppID">
              <Input autoComplete="off" placeholder="wx..." />
            </Form.Item>
            <Form.Item
              name="appSecret"
              label="AppSecret"
              extra={s.wechat.appSecretSet ? '已设置，留空则不修改' : '在公众平台“设置与开发 → 基本配置”中获取'}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="baseUrl" label="接口地址" extra="一般留空（https://api.weixin.qq.com）">
              <Input placeholder="https://api.weixin.qq.com" />
            </Form.Item>
            <Form.Item
              name="authorizeBaseUrl"
              label="网页授权地址"
              extra="一般留空（https://open.weixin.qq.com）。会员在微信中打开约课页面时经此授权，登录后绑定微信"
              rules={[{ pattern: /^https?:\/\/\S+$/, message: '网页授权地址应以 http:// 或 https:// 开头' }]}
            >
              <Input placeholder="https://open.weixin.qq.com" />
            </Form.Item>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              短信：{s.sms.provider === 'none' ? '未设置短信服务' : `已设置，每天最多 ${s.sms.dailyCap} 条`}（门店设置 →
              短信服务）。会员绑定微信后优先发公众号消息，否则发短信。
            </Typography.Text>
          </Card>
        </Col>
      </Row>
      <Card title="各类提醒的模板" size="small" style={{ marginTop: 16 }}>
        {NOTIFY_KINDS.map((kind) => (
          <KindRow key={kind} kind={kind} />
        ))}
      </Card>
      <Button type="primary" htmlType="submit" loading={save.loading} style={{ marginTop: 16 }}>
        保存消息提醒设置
      </Button>
    </Form>
  );
}

function KindRow({ kind }: { kind: NotifyKind }) {
  const { message } = App.useApp();
  const test = useSendNotifyTest();
  const [openid, setOpenid] = useState('');
  const vars = NOTIFY_VARS[kind];
  const form = Form.useFormInstance<Values>();
  const fields = Form.useWatch(['kinds', kind, 'wxFields'], form) as KindFields['wxFields'];
  const params = Form.useWatch(['kinds', kind, 'smsParams'], form) as string[] | undefined;
  const varOptions = vars.map((v) => ({ value: v, label: `${NOTIFY_VAR_LABEL[v]}（${v}）` }));
  const send = async (channel: 'sms' | 'wechat') => {
    const r = await test.run({ kind, channel, ...(channel === 'wechat' ? { openid } : {}) });
    if (r) void message.success(`已发送到 ${r.data.to}`);
  };
  return (
    <div data-testid={`notify-kind-${kind}`} style={{ borderBottom: '1px solid #f0f0f0', padding: '12px 0' }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {NOTIFY_KIND_LABEL[kind]}
      </Typography.Title>
      <Row gutter={16}>
        <Col span={9}>
          <Form.Item name={['kinds', kind, 'wxTemplateId']} label="微信模板 ID">
            <Input placeholder="未设置则不发微信" />
          </Form.Item>
          <Form.List name={['kinds', kind, 'wxFields']}>
            {(items, { add, remove }) => (
              <>
                {items.map((item) => (
                  <Space key={item.key} align="baseline">
                    <Form.Item
                      name={[item.name, 'key']}
                      rules={[{ pattern: /^[A-Za-z0-9_]{1,32}$/, message: NotifyMsg.field }]}
                    >
                      <Input placeholder="thing1" style={{ width: 90 }} />
                    </Form.Item>
                    <Form.Item name={[item.name, 'value']}>
                      <Input placeholder="{course}" style={{ width: 160 }} />
                    </Form.Item>
                    <Button type="link" size="small" onClick={() => remove(item.name)}>
                      删除
                    </Button>
                  </Space>
                ))}
                <Button size="small" onClick={() => add({ key: '', value: '' })}>
                  添加字段
                </Button>
              </>
            )}
          </Form.List>
        </Col>
        <Col span={7}>
          <Form.Item name={['kinds', kind, 'smsTemplateId']} label="短信模板 ID">
            <Input placeholder="未设置则不发短信" />
          </Form.Item>
          <Form.Item
            name={['kinds', kind, 'smsParams']}
            label="模板参数（按顺序）"
            extra="腾讯云按顺序对应 {1}{2}…；阿里云按变量名"
          >
            <Select mode="multiple" options={varOptions} placeholder="选择变量" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Typography.Text type="secondary">预览</Typography.Text>
          <div
            data-testid={`notify-preview-${kind}`}
            style={{ background: '#fafafa', padding: 8, borderRadius: 6, margin: '4px 0 8px', fontSize: 13 }}
          >
            <div>{fillVars(NOTIFY_TEXT[kind], NOTIFY_SAMPLE)}</div>
            {(fields ?? []).filter((f) => f?.key).length > 0 && (
              <div style={{ marginTop: 6, color: '#666' }}>
                {(fields ?? [])
                  .filter((f) => f?.key)
                  .map((f) => `${f.key}：${fillVars(f.value ?? '', NOTIFY_SAMPLE)}`)
                  .join('；')}
              </div>
            )}
            {params && params.length > 0 && (
              <div style={{ marginTop: 6, color: '#666' }}>
                短信参数：{params.map((p) => NOTIFY_SAMPLE[p] ?? '').join('，')}
              </div>
            )}
          </div>
          <Space wrap>
            <Button size="small" loading={test.loading} onClick={() => void send('sms')}>
              发送测试短信到我的手机
            </Button>
            <Input
              size="small"
              placeholder="openid"
              style={{ width: 120 }}
              value={openid}
              onChange={(e) => setOpenid(e.target.value)}
              aria-label={`${NOTIFY_KIND_LABEL[kind]}测试 openid`}
            />
            <Button size="small" loading={test.loading} disabled={!openid} onClick={() => void send('wechat')}>
              发送测试微信
            </Button>
          </Space>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4, marginBottom: 0 }}>
            可用变量：{vars.map((v) => `{${v}} ${NOTIFY_VAR_LABEL[v]}`).join('、')}
          </Typography.Paragraph>
        </Col>
      </Row>
    </div>
  );
}
