import { OnlineMsg } from '@studio/contract';
import { Button, Card, Form, Input, Select, Skeleton } from 'antd';
import { useOnlineSetting, useSaveOnlineSetting } from './hooks.ts';

/** The online tool types whose rooms the system creates (spec: 4, 5, 6 API-integrated, 9 with friending). */
const DYNAMIC_TYPES = ['4', '5', '6', '9'] as const;

/** Meeting services, by the names the studio knows; only Jitsi Meet works without an account this installation holds. */
const SERVICES = [
  { value: 'jitsi', label: 'Jitsi Meet（自建或公共服务器）' },
  { value: 'zoom', label: 'Zoom（暂未接入）', disabled: true },
  { value: 'tencent', label: '腾讯会议（暂未接入）', disabled: true },
  { value: 'classin', label: 'ClassIn（暂未接入）', disabled: true },
];

interface Values {
  jitsiBaseUrl?: string;
  service: string;
}

/**
 * 在线教室: where the system makes online rooms (the Jitsi Meet server's address) and the meeting
 * service it uses for teachers without a fixed room of their own, named as the studio knows them
 * (the tool types underneath all use the one chosen). Without an address, rooms that need Jitsi
 * answer 「Jitsi Meet未配置」: this is the way out.
 */
export function OnlineCard() {
  const q = useOnlineSetting();
  const save = useSaveOnlineSetting();
  const [form] = Form.useForm<Values>();
  const s = q.data;
  const providers = (s?.providers ?? {}) as Record<string, string | undefined>;
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
            service: providers[String(s.defaultType)] ?? 'jitsi',
          }}
          onFinish={(v) => {
            // Jitsi is the default of every type: it is not written; another service is set for all types.
            const chosen = v.service === 'jitsi' ? {} : Object.fromEntries(DYNAMIC_TYPES.map((t) => [t, v.service]));
            void save.run({
              jitsiBaseUrl: v.jitsiBaseUrl?.trim() || null,
              defaultType: s.defaultType,
              providers: chosen,
            });
          }}
        >
          <Form.Item
            label="会议服务"
            name="service"
            extra="老师没有设置自己的固定会议室时，系统用这个服务自动创建在线教室。"
          >
            <Select options={SERVICES} />
          </Form.Item>
          <Form.Item
            label="Jitsi Meet 服务器地址"
            name="jitsiBaseUrl"
            extra="填写后，自动创建的在线教室使用这个服务器（例如 https://meet.jit.si）；不填则无法自动创建。"
            rules={[{ pattern: /^https?:\/\/[^\s?#]+$/, message: OnlineMsg.jitsiBaseUrl }]}
          >
            <Input placeholder="https://meet.example.com" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.loading}>
            保存在线教室设置
          </Button>
        </Form>
      )}
    </Card>
  );
}
