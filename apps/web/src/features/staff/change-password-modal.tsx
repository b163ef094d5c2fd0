import { StaffMsg } from '@studio/contract';
import { Form, Input, Typography } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { useChangePassword } from './hooks.ts';
import { confirmPasswordRules, newPasswordRules, PASSWORD_HELP } from './password.ts';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** 修改密码 (the header): the own password; the staff member's logins elsewhere end, this one stays. */
export default function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useChangePassword();
  return (
    <FormModal
      title="修改密码"
      okText="确认修改"
      form={form}
      loading={save.loading}
      submit={(v) => save.run(v.oldPassword, v.newPassword)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        修改后，在其他电脑或浏览器上的登录会退出，需要用新密码重新登录。
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" autoComplete="off">
        <Form.Item label="原密码" name="oldPassword" rules={[{ required: true, message: StaffMsg.oldPassword }]}>
          <Input.Password autoComplete="current-password" maxLength={128} />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPassword"
          required
          extra={PASSWORD_HELP}
          dependencies={['oldPassword']}
          rules={[
            ...newPasswordRules,
            ({ getFieldValue }) => ({
              validator: (_, v: string | undefined) =>
                v && v === getFieldValue('oldPassword')
                  ? Promise.reject(new Error(StaffMsg.samePassword))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirm"
          dependencies={['newPassword']}
          rules={confirmPasswordRules('newPassword')}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
