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
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useStoreSetting } from '../../shared/reference.ts';
import { timeZoneOptions } from '../../shared/timezones.ts';
import { MemberPageCard } from './member-page-card.tsx';
import { TrialPageCard } from './trial-page-card.tsx';
import { OnlineCard } from './online-card.tsx';
import { HealthCard } from './health-card.tsx';
import { SmsCard } from './sms-card.tsx';
import {
  useBookingSetting,
  useSaveBookingSetting,
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
          <StoreInfoCard />
          <LogoCard />
          <WechatCard />
          <SmsCard />
        </Space>
      </Col>
      <Col span={12}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <MemberPageCard />
          <TrialPageCard />
          <OnlineCard />
          <HealthCard />
          <FuncsCard />
        </Space>
      </Col>
    </Row>
  );
}

/** 门店信息: the store's name and time zone (saved with the booking setting's call, the rest unchanged). */
function StoreInfoCard() {
  const q = useBookingSetting();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ storeName: string; timezone: string }>();
  const save = useSaveBookingSetting((e) => void message.error(e.message));
  const s = q.data;
  return (
    <Card title="门店信息" size="small">
      {!s ? (
        <Skeleton active />
      ) : (
        <Form
          form={form}
          layout="vertical"
          data-testid="store-info"
          initialValues={{ storeName: s.storeName, timezone: s.timezone }}
          onFinish={(v) =>
            void save.run({
              deductionMode: s.deductionMode as 0 | 1,
              onlineDefault: s.onlineDefault as 0 | 1,
              storeName: v.storeName,
              timezone: v.timezone,
            })
          }
        >
          <Form.Item
            label="门店名称"
            name="storeName"
            rules={[{ required: true, whitespace: true, message: StoreAdminMsg.storeName }]}
          >
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item
            label="时区"
            name="timezone"
            rules={[{ required: true, message: StoreAdminMsg.timezone }]}
            extra="修改时区不会移动已排的课程（课程时间按门店当地时间保存）"
          >
            <Select showSearch options={timeZoneOptions()} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.loading}>
            保存门店信息
          </Button>
        </Form>
      )}
    </Card>
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
}

/**
 * 消息设置: the WeCom group robot's address. Other keys of the stored setting (set through the API)
 * are kept as they are when saving; staff never see them.
 */
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
    const url = v.webhookUrl?.trim();
    void save.run(url ? { ...rest, webhookUrl: url } : rest);
  };
  return (
    <Card title="消息设置" size="small">
      <Form<WechatValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ webhookUrl: typeof webhookUrl === 'string' ? webhookUrl : undefined }}
      >
        <Form.Item
          label="企业微信群机器人地址"
          name="webhookUrl"
          extra="在企业微信群里添加「群机器人」后复制它的地址；预约、取消和课程变动会发到这个群。留空则不发送。"
          rules={[{ pattern: /^https?:\/\/\S+$/, message: StoreAdminMsg.webhookUrl }]}
        >
          <Input placeholder="https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=..." />
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

/**
 * Functions chosen elsewhere in staff words: 签到扣费 is the deduction mode of 预约设置, so it is not
 * a second switch here (an entry stored with it is kept unchanged when the list is saved).
 */
const HIDDEN_FUNCS = ['sign-in-deduction'];

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
            // Shown as edited until the saved list is read back (no flicker to the old values).
            if (edited && (await save.run(edited))) {
              await q.refetch();
              setEdited(null);
            }
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
        dataSource={list.filter((f) => !HIDDEN_FUNCS.includes(shown(f.key) ?? ''))}
        pagination={false}
        columns={[
          { title: '功能', render: (_, f) => shown(f.name) ?? '（未命名的功能）' },
          {
            title: '启用',
            width: 80,
            render: (_, f) => (
              <Switch
                size="small"
                aria-label={`启用${shown(f.name) ?? '（未命名的功能）'}`}
                checked={Number(f.enabled) === 1}
                onChange={(on) => toggle(list.indexOf(f), on)}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
