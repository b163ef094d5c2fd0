import { TeacherPayMsg } from '@studio/contract';
import { Form, Input, Typography } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { useReopenMonth } from './hooks.ts';
import type { CloseKind } from './types.ts';

const WHAT: Record<CloseKind, string> = { teacher: '课时费', commission: '销售提成' };

/** 重新打开: a manager reopens a closed month, saying why (the audit log keeps it). */
export default function ReopenModal({ kind, month, onClose }: { kind: CloseKind; month: string; onClose: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const reopen = useReopenMonth(kind);
  return (
    <FormModal
      title={`重新打开 ${month} ${WHAT[kind]}`}
      okText="重新打开"
      form={form}
      loading={reopen.loading}
      submit={(v) => reopen.run(month, v.reason.trim())}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        重新打开后，该月的{WHAT[kind]}按当前的数据重新计算，{kind === 'teacher' ? '该月课程的老师和时间、' : ''}
        调整都可以再修改，直到再次结算关闭。原因会记入操作日志。
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          label="原因"
          name="reason"
          rules={[{ required: true, whitespace: true, message: TeacherPayMsg.reopenReason }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：漏记了一节代课" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
