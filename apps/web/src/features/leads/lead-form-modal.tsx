import { LeadMsg, type LeadRow } from '@studio/contract';
import { Form, Input, Select } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { useProfile } from '../../shared/profile.ts';
import { useAddLead, useEditLead, useLeadSources } from './hooks.ts';

interface Values {
  name: string;
  mobile: string;
  source: string;
  interests?: string | null;
  notes?: string | null;
  /** A new lead: 跟进人 oneself ('me') or the pool ('pool'). */
  owner?: 'me' | 'pool';
}

/**
 * 添加潜客 or 编辑潜客. A mobile that already has a lead merges into it (the server says so: the
 * toast names it); `onDone` gets the lead that now holds the entry.
 */
export default function LeadFormModal({ lead, onClose }: { lead: LeadRow | null; onClose: (id?: number) => void }) {
  const [form] = Form.useForm<Values>();
  const add = useAddLead();
  const edit = useEditLead();
  const me = useProfile().data;
  const sources = useLeadSources();
  const submit = (v: Values) => {
    const fields = {
      name: v.name,
      mobile: v.mobile.trim(),
      source: v.source,
      interests: v.interests || null,
      notes: v.notes || null,
    };
    return lead
      ? edit.run({ id: lead.id, ...fields })
      : add.run({ ...fields, ownerId: v.owner === 'pool' ? null : (me?.id ?? null) });
  };
  return (
    <FormModal
      title={lead ? '编辑潜客' : '添加潜客'}
      form={form}
      loading={add.loading || edit.loading}
      submit={submit}
      onDone={(r) => onClose(r.id)}
      onCancel={() => onClose()}
    >
      <Form<Values> form={form} layout="vertical" initialValues={lead ? { ...lead } : { source: '到店', owner: 'me' }}>
        <Form.Item label="姓名" name="name" rules={[{ required: true, whitespace: true, message: LeadMsg.name }]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item
          label="手机号"
          name="mobile"
          extra="同一手机号只有一位潜客：已有时合并到该潜客"
          rules={[
            { required: true, message: '请输入手机号' },
            { pattern: /^1\d{10}$/, message: '请输入正确的11位手机号' },
          ]}
        >
          <Input maxLength={11} />
        </Form.Item>
        <Form.Item label="来源" name="source" rules={[{ required: true, message: LeadMsg.source }]}>
          <Select options={sources.map((s) => ({ value: s, label: s }))} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item label="意向" name="interests">
          <Input maxLength={200} placeholder="如：瑜伽、普拉提" />
        </Form.Item>
        <Form.Item label="备注" name="notes">
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
        {!lead && (
          <Form.Item label="跟进人" name="owner">
            <Select
              style={{ width: 220 }}
              options={[
                { value: 'me', label: '我来跟进' },
                { value: 'pool', label: '放入公海' },
              ]}
            />
          </Form.Item>
        )}
      </Form>
    </FormModal>
  );
}
