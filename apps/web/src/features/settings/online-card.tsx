import { OnlineMsg } from '@studio/contract';
import { Button, Card, Form, Input, Select, Skeleton, Typography } from 'antd';
import { useOnlineSetting, useSaveOnlineSetting } from './hooks.ts';

/** The online tool types whose rooms the system creates (spec: 4, 5, 6 API-integrated, 9 with friending). */
const DYNAMIC_TYPES = [
  { value: 4, label: '课堂工具' },
  { value: 5, label: '第三会议工具' },
  { value: 6, label: '第一会议工具' },
  { value: 9, label: '课堂工具（师生好友）' },
];

/** Services a type can use; only Jitsi Meet works without an account this installation holds. */
const SERVICES = [
  { value: 'jitsi', label: 'Jitsi Meet（自建或公共服务器）' },
  { value: 'zoom', label: 'Zoom（暂未接入）', disabled: true },
  { value: 'tencent', label: '腾讯会议（暂未接入）', disabled: true },
  { value: 'classin', label: 'ClassIn（暂未接入）', disabled: true },
];

interface Values {
  jitsiBaseUrl?: string;
  defaultType: 4 | 5 | 6 | 9;
  providers: Record<string, string | undefined>;
}

/**
 * 在线教室: where the system makes online rooms (the Jitsi Meet server's address), which tool a
 * teacher without one uses, and the service of each tool type. Without an address, rooms that need
 * Jitsi answer 「Jitsi Meet未配置」: this is the way out.
 */
export function OnlineCard() {
  const q = useOnlineSetting();
  const save = useSaveOnlineSetting();
  const [form] = Form.useForm<Values>();
  const s = q.data;
  return (
    <Card title="在线教室" size="small">
      {!s ? (
        <Skeleton active />
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          data-testid="online-setting"
          initialValues={{
            jitsiBaseUrl: s.jitsiBaseUrl ?? '',
            defaultType: s.defaultType as Values['defaultType'],
            providers: s.providers as Values['providers'],
          }}
          onFinish={(v) => {
            // Types left on the default (Jitsi) are not written; others stored are kept as they were.
            const providers = Object.fromEntries(
              Object.entries({ ...s.providers, ...v.providers }).filter(([, name]) => name),
            );
            void save.run({ jitsiBaseUrl: v.jitsiBaseUrl?.trim() || null, defaultType: v.defaultType, providers });
          }}
        >
          <Form.Item
            label="Jitsi Meet 服务器地址"
            name="jitsiBaseUrl"
            extra="填写后，自动创建的在线教室使用这个服务器（例如 https://meet.jit.si）；不填则无法自动创建。"
            rules={[{ pattern: /^https?:\/\/[^\s?#]+$/, message: OnlineMsg.jitsiBaseUrl }]}
          >
            <Input placeholder="https://meet.example.com" />
          </Form.Item>
          <Form.Item label="老师未设置在线教室类型时使用" name="defaultType">
            <Select options={DYNAMIC_TYPES} />
          </Form.Item>
          <Typography.Text type="secondary">各类在线教室使用的会议服务：</Typography.Text>
          {DYNAMIC_TYPES.map((t) => (
            <Form.Item key={t.value} label={t.label} name={['providers', String(t.value)]} style={{ marginTop: 8 }}>
              <Select allowClear placeholder="Jitsi Meet（默认）" options={SERVICES} />
            </Form.Item>
          ))}
          <Button type="primary" htmlType="submit" loading={save.loading}>
            保存在线教室设置
          </Button>
        </Form>
      )}
    </Card>
  );
}
