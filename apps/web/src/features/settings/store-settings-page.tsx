import { UploadOutlined } from '@ant-design/icons';
import { LOGO_MAX_BYTES, StoreAdminMsg } from '@studio/contract';
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Image,
  Input,
  Row,
  Skeleton,
  Space,
  Switch,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useStoreSetting } from '../../shared/reference.ts';
import { MemberPageCard } from './member-page-card.tsx';
import { SmsCard } from './sms-card.tsx';
import {
  useMessagingSetting,
  useSaveMessagingSetting,
  useSaveStoreFunctions,
  useStoreFunctions,
  useUploadLogo,
  type StoreFunction as Func,
} from './hooks.ts';

const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** /settings/store (not /store/...: that prefix belongs to the API): messaging setting, logo, function list. */
export default function StoreSettingsPage() {
  return (
    <Row gutter={16}>
      <Col span={12}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <LogoCard />
          <WechatCard />
          <SmsCard />
        </Space>
      </Col>
      <Col span={12}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <MemberPageCard />
          <FuncsCard />
        </Space>
      </Col>
    </Row>
  );
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error('读取图片失败'));
    r.readAsDataURL(file);
  });
}

function LogoCard() {
  const { message } = App.useApp();
  const q = useStoreSetting();
  const upload = useUploadLogo();
  const before = async (file: File) => {
    if (!LOGO_TYPES.includes(file.type)) void message.error(StoreAdminMsg.imageType);
    else if (file.size > LOGO_MAX_BYTES) void message.error(StoreAdminMsg.imageTooLarge);
    else await upload.run(await readDataUrl(file));
    return Upload.LIST_IGNORE;
  };
  return (
    <Card title="门店 Logo" size="small">
      <Space align="center" size={24}>
        <div
          style={{
            width: 120,
            height: 120,
            border: '1px dashed #d9d9d9',
            borderRadius: 8,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            overflow: 'hidden',
          }}
          data-testid="logo-box"
        >
          {q.isPending ? (
            <Skeleton.Image active />
          ) : q.data?.logo ? (
            <Image src={q.data.logo} alt="门店 Logo" width={116} height={116} style={{ objectFit: 'contain' }} />
          ) : (
            <Typography.Text type="secondary">暂无 Logo</Typography.Text>
          )}
        </div>
        <div>
          <Upload accept=".png,.jpg,.jpeg,.webp" showUploadList={false} beforeUpload={before}>
            <Button icon={<UploadOutlined />} loading={upload.loading}>
              上传 Logo
            </Button>
          </Upload>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, fontSize: 12 }}>
            支持 PNG、JPEG、WebP，不超过 1MB；用于周课表图片。
          </Typography.Paragraph>
        </div>
      </Space>
    </Card>
  );
}

interface WechatValues {
  webhookUrl?: string;
  extra?: string;
}

function parseObject(text: string | undefined): Record<string, unknown> | null {
  if (!text?.trim()) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function WechatCard() {
  const q = useMessagingSetting();
  const [form] = Form.useForm<WechatValues>();
  const save = useSaveMessagingSetting();
  if (q.isPending)
    return (
      <Card title="消息设置" size="small">
        <Skeleton active />
      </Card>
    );
  const { webhookUrl, ...rest } = q.data ?? {};
  const onFinish = (v: WechatValues) => {
    const extra = parseObject(v.extra)!;
    const url = v.webhookUrl?.trim();
    void save.run(url ? { ...extra, webhookUrl: url } : extra);
  };
  return (
    <Card title="消息设置" size="small">
      <Form<WechatValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{
          webhookUrl: typeof webhookUrl === 'string' ? webhookUrl : undefined,
          extra: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '',
        }}
      >
        <Form.Item
          label="消息推送地址（webhookUrl）"
          name="webhookUrl"
          rules={[{ pattern: /^https?:\/\/\S+$/, message: StoreAdminMsg.webhookUrl }]}
        >
          <Input placeholder="https://..." />
        </Form.Item>
        <Form.Item
          label="其他设置（JSON 对象）"
          name="extra"
          rules={[
            {
              validator: (_, t?: string) =>
                parseObject(t) ? Promise.resolve() : Promise.reject(new Error(StoreAdminMsg.settingNotObject)),
            },
          ]}
        >
          <Input.TextArea rows={5} placeholder='{"appId": "..."}' style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.loading}>
          保存消息设置
        </Button>
      </Form>
    </Card>
  );
}

/** A stored value as text for the screen: text and numbers as they are, anything else unreadable. */
const shown = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

function FuncsCard() {
  const q = useStoreFunctions();
  const [edited, setEdited] = useState<Func[] | null>(null);
  // Stored as given by the spec: read every entry defensively (a value of any shape must not break the screen).
  const stored = Array.isArray(q.data) ? q.data.filter((f) => typeof f === 'object' && f !== null) : [];
  const list = edited ?? stored;
  const save = useSaveStoreFunctions();
  const toggle = (i: number, on: boolean) =>
    setEdited(list.map((f, j) => (j === i ? { ...f, enabled: on ? 1 : 0 } : f)));
  return (
    <Card
      title="门店功能"
      size="small"
      extra={
        <Button
          type="primary"
          loading={save.loading}
          disabled={!edited}
          onClick={async () => {
            if (edited && (await save.run(edited))) setEdited(null);
          }}
        >
          保存功能设置
        </Button>
      }
    >
      <Table<Func>
        rowKey={(f) => `${list.indexOf(f)}:${shown(f.key) ?? ''}`}
        size="small"
        loading={q.isFetching}
        dataSource={list}
        pagination={false}
        columns={[
          { title: '功能', render: (_, f) => shown(f.name) ?? shown(f.key) ?? '（无法读取）' },
          { title: '标识', render: (_, f) => <Typography.Text code>{shown(f.key) ?? '-'}</Typography.Text> },
          {
            title: '启用',
            width: 80,
            render: (_, f, i) => (
              <Switch size="small" checked={Number(f.enabled) === 1} onChange={(on) => toggle(i, on)} />
            ),
          },
        ]}
      />
    </Card>
  );
}
