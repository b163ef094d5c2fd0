import { LeadMsg, type LeadSetting } from '@studio/contract';
import { Button, Card, Form, InputNumber, Select, Spin } from 'antd';
import { useLeadSetting, useSaveLeadSetting } from './hooks.ts';

/** 潜客设置 (店长): days without a follow-up before a lead goes back to the pool, and the store's sources. */
export default function LeadSettingCard() {
  const q = useLeadSetting();
  const save = useSaveLeadSetting();
  const [form] = Form.useForm<LeadSetting>();
  if (!q.data) return <Spin />;
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v) await save.run({ returnDays: v.returnDays, sources: v.sources ?? [] });
  };
  return (
    <Card title="潜客设置" size="small" data-testid="lead-setting">
      <Form<LeadSetting>
        form={form}
        layout="vertical"
        initialValues={{ returnDays: q.data.returnDays, sources: q.data.sources }}
        style={{ maxWidth: 480 }}
      >
        <Form.Item
          name="returnDays"
          label="多少天未跟进回收到公海"
          extra="跟进人这么多天没有跟进、分配或领取，潜客回到公海，任何员工都可领取；0为不回收"
          rules={[{ required: true, type: 'integer', min: 0, max: 365, message: LeadMsg.returnDays }]}
        >
          <InputNumber min={0} max={365} precision={0} addonAfter="天" />
        </Form.Item>
        <Form.Item
          name="sources"
          label="门店自己的来源"
          extra={`内置来源：${q.data.builtInSources.join('、')}`}
          rules={[
            {
              // The contract's rule: 1-20 characters, none twice, none a built-in one.
              validator: async (_, v: string[] | undefined) => {
                const l = (v ?? []).map((x) => x.trim());
                if (l.some((x) => x.length < 1 || x.length > 20)) throw new Error(LeadMsg.sourceName);
                if (new Set(l).size !== l.length || l.some((x) => q.data!.builtInSources.includes(x)))
                  throw new Error(LeadMsg.sourceTwice);
              },
            },
          ]}
        >
          <Select mode="tags" placeholder="输入来源名称后回车，如：小红书" open={false} suffixIcon={null} />
        </Form.Item>
        <Button type="primary" loading={save.loading} onClick={() => void submit()}>
          保存设置
        </Button>
      </Form>
    </Card>
  );
}
