import {
  LEAD_STAGE_LABEL,
  LEAD_STAGES,
  MARKETING_STOP,
  MARKETING_TEXT_MAX,
  MarketingMsg,
  type LeadStage,
} from '@studio/contract';
import {
  App,
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Statistic,
  Tabs,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import {
  useMarketingPreview,
  useMarketingSetting,
  useSaveMarketingSetting,
  useSendMarketing,
  type MarketingAudience,
} from './hooks.ts';
import MarketingSends from './marketing-sends.tsx';

interface SendForm {
  members: boolean;
  leads: boolean;
  leadStages: LeadStage[];
  text: string;
}

/** 营销短信模板 and the reply address the manager gives the SMS provider. */
function MarketingSettingCard() {
  const q = useMarketingSetting();
  const save = useSaveMarketingSetting();
  const [templateId, setTemplateId] = useState('');
  useEffect(() => setTemplateId(q.data?.templateId ?? ''), [q.data?.templateId]);
  if (!q.data) return null;
  return (
    <Card size="small" title="营销短信设置" data-testid="marketing-setting">
      {q.data.provider === 'none' && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={MarketingMsg.noSms} />
      )}
      <Space wrap>
        <span>营销短信模板 ID</span>
        <Input
          aria-label="营销短信模板 ID"
          data-testid="marketing-template"
          style={{ width: 200 }}
          value={templateId}
          maxLength={64}
          onChange={(e) => setTemplateId(e.target.value)}
        />
        <Button
          loading={save.loading}
          disabled={!templateId.trim()}
          onClick={() => void save.run({ templateId: templateId.trim() })}
        >
          保存
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        模板只含一个变量（腾讯云 {'{1}'}，阿里云 {'${content}'}），即整条短信内容。
        {q.data.uplinkUrl && (
          <>
            请把上行短信（回复）回调地址填到短信服务商控制台，会员回复 T 即退订：
            <Typography.Text copyable data-testid="marketing-uplink">
              {q.data.uplinkUrl}
            </Typography.Text>
          </>
        )}
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * 营销短信 (店长): choose who (members, leads by stage) and write the text; the preview shows how
 * many agreed and get it, and how many are left out; the server adds the unsubscribe link and 回T退订.
 */
export default function MarketingPage() {
  const [tab, setTab] = useState('send');
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'send', label: '发送营销短信', children: <SendMarketing /> },
        { key: 'sends', label: '发送记录', children: <MarketingSends /> },
      ]}
    />
  );
}

function SendMarketing() {
  const { message } = App.useApp();
  const [form] = Form.useForm<SendForm>();
  const members = Form.useWatch('members', form) ?? true;
  const leads = Form.useWatch('leads', form) ?? false;
  const leadStages = Form.useWatch('leadStages', form) ?? [];
  const text = Form.useWatch('text', form) ?? '';
  const audience: MarketingAudience | null =
    members || leads ? { members, leads, leadStages: leads ? leadStages : [], text: text.trim() } : null;
  const preview = useMarketingPreview(audience);
  const send = useSendMarketing();
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const r = await send.run({
      members: v.members,
      leads: v.leads,
      leadStages: v.leads ? v.leadStages : [],
      text: v.text,
    });
    if (r) {
      void message.success(`已提交发送给 ${r.data.recipients} 人`);
      form.setFieldValue('text', '');
    }
  };
  const p = preview.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%', maxWidth: 760 }}>
      <MarketingSettingCard />
      <Card size="small" title="发送营销短信" data-testid="marketing-send">
        <Form<SendForm>
          form={form}
          layout="vertical"
          initialValues={{ members: true, leads: false, leadStages: [], text: '' }}
        >
          <Form.Item
            label="发送对象"
            required
            extra="只发给同意接收营销短信的人；同一手机号只发一条；验证码和预约通知不受影响"
          >
            <Space wrap>
              <Form.Item name="members" valuePropName="checked" noStyle>
                <Checkbox data-testid="marketing-members">会员</Checkbox>
              </Form.Item>
              <Form.Item name="leads" valuePropName="checked" noStyle>
                <Checkbox data-testid="marketing-leads">潜客</Checkbox>
              </Form.Item>
              {leads && (
                <Form.Item name="leadStages" noStyle>
                  <Select
                    mode="multiple"
                    aria-label="潜客阶段"
                    data-testid="marketing-stages"
                    allowClear
                    placeholder="全部阶段"
                    style={{ minWidth: 220 }}
                    options={LEAD_STAGES.map((s) => ({ value: s, label: LEAD_STAGE_LABEL[s] }))}
                  />
                </Form.Item>
              )}
            </Space>
          </Form.Item>
          <Form.Item
            name="text"
            label="短信内容"
            extra={`末尾会自动加上退订链接和“${MARKETING_STOP}”`}
            rules={[
              { required: true, whitespace: true, message: MarketingMsg.text },
              { max: MARKETING_TEXT_MAX, message: MarketingMsg.textLong },
            ]}
          >
            <Input.TextArea data-testid="marketing-text" rows={3} maxLength={MARKETING_TEXT_MAX} showCount />
          </Form.Item>
          {audience === null ? (
            <Alert type="info" showIcon message={MarketingMsg.audience} />
          ) : (
            p && (
              <div data-testid="marketing-preview">
                <Space size="large" wrap>
                  <Statistic title="将收到" value={p.recipients} suffix="人" />
                  <Statistic title="会员" value={p.members} />
                  <Statistic title="潜客" value={p.leads} />
                  <Statistic title="未同意、已退订（不发送）" value={p.excluded} suffix="人" />
                </Space>
                <Typography.Paragraph type="secondary" style={{ marginTop: 8 }} data-testid="marketing-sample">
                  收到的短信：{p.sample}
                </Typography.Paragraph>
              </div>
            )
          )}
          <Popconfirm
            title={`发送给 ${p?.recipients ?? 0} 人？`}
            okText="发送"
            cancelText="取消"
            onConfirm={() => void submit()}
            disabled={!audience || !p?.recipients}
          >
            <Button
              type="primary"
              data-testid="marketing-submit"
              loading={send.loading}
              disabled={!audience || !p?.recipients}
            >
              发送
            </Button>
          </Popconfirm>
        </Form>
      </Card>
    </Space>
  );
}
