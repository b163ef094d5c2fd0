import type { StaffRow } from '@studio/contract';
import { Form, Input, Typography } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { useResetStaffPassword } from './hooks.ts';
import { confirmPasswordRules, newPasswordRules, PASSWORD_HELP } from './password.ts';

interface Values {
  password: string;
  confirm: string;
}

/** 重置密码: a manager sets a staff member's new password; all their logins end. */
export function ResetPasswordModal({ staff, onClose }: { staff: StaffRow; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useResetStaffPassword();
  return (
    <FormModal
      title={`重置密码：${staff.name}`}
      okText="重置密码"
      form={form}
      loading={save.loading}
      submit={(v) => save.run(staff.id, v.password)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        重置后 {staff.name}（账号 {staff.account}）的全部登录立即退出，需要用新密码重新登录。请把新密码告诉本人。
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" autoComplete="off">
        <Form.Item label="新密码" name="password" required extra={PASSWORD_HELP} rules={newPasswordRules}>
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirm"
          dependencies={['password']}
          rules={confirmPasswordRules('password')}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
