import { ROLE_LABEL, STAFF_ROLES, StaffMsg, type StaffRole, type StaffRow } from '@studio/contract';
import { App, Form, Input, Radio, Select, Switch } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { useProfile } from '../../shared/profile.ts';
import { useTeachers } from '../../shared/reference.ts';
import { useInsertStaff, useUpdateStaff } from './hooks.ts';
import { newPasswordRules, PASSWORD_HELP } from './password.ts';

interface Values {
  name: string;
  account?: string;
  mobile?: string;
  password?: string;
  role?: StaffRole;
  teacherId?: number | null;
  enabled?: boolean;
}

/** What each role may do, as the role picker explains it. */
const ROLE_HELP: Record<StaffRole, string> = {
  manager: '店长：全部功能，包括门店设置、预约设置、卡种价格、员工、操作日志和数据报表',
  desk: '前台：日常排课、预约、签到、会员和会员卡；不能退款、免除扣费、修改有效期、卡种和设置',
  teacher: '老师：只能看到自己的课程，为自己课程的会员签到，管理在线教室；不涉及收费',
};

/**
 * 新增员工 (staff null) or 编辑: name, mobile, role, the teacher a 老师 account is (required then),
 * and for an existing one whether it is enabled (disabling asks first: their logins end at once).
 */
export function StaffFormModal({
  staff,
  all,
  onClose,
}: {
  staff: StaffRow | null;
  all: StaffRow[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const { modal } = App.useApp();
  // Nobody disables their own account (the server refuses it too).
  const me = useProfile().data;
  const teachers = useTeachers();
  const insert = useInsertStaff();
  const update = useUpdateStaff();
  const role = Form.useWatch('role', form) ?? staff?.role;
  const tiedTo = new Map(all.filter((s) => s.teacherId && s.id !== staff?.id).map((s) => [s.teacherId!, s.name]));

  const confirmDisable = () =>
    new Promise<boolean>((resolve) =>
      modal.confirm({
        title: `停用员工 ${staff?.name ?? ''}`,
        content: '停用后，该员工的登录立即结束，不能再登录本门店，直到重新启用。确定停用吗？',
        okText: '停用',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    );

  const submit = async (v: Values) => {
    const teacherId = v.role === 'teacher' ? (v.teacherId ?? null) : null;
    const mobile = v.mobile?.trim() || null;
    if (!staff) {
      return insert.run({
        name: v.name.trim(),
        account: v.account!.trim(),
        mobile,
        password: v.password!,
        role: v.role!,
        teacherId,
      });
    }
    const enabled = v.enabled ? 1 : 0;
    if (staff.enabled === 1 && enabled === 0 && !(await confirmDisable())) return undefined;
    return update.run({ id: staff.id, name: v.name.trim(), mobile, role: v.role!, teacherId, enabled });
  };

  return (
    <FormModal
      title={staff ? `编辑员工：${staff.name}` : '新增员工'}
      form={form}
      loading={insert.loading || update.loading}
      submit={submit}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={
          staff
            ? {
                name: staff.name,
                mobile: staff.mobile ?? undefined,
                role: staff.role,
                teacherId: staff.teacherId,
                enabled: staff.enabled === 1,
              }
            : { role: 'desk' }
        }
      >
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
          <Form.Item
            label="姓名"
            name="name"
            rules={[
              { required: true, whitespace: true, message: StaffMsg.name },
              { max: 32, message: '姓名不能超过32个字符' },
            ]}
          >
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item
            label="手机号"
            name="mobile"
            extra="选填；填写后也可以用手机号登录"
            rules={[{ pattern: /^\s*1\d{10}\s*$/, message: '请输入正确的11位手机号' }]}
          >
            <Input maxLength={11} />
          </Form.Item>
          {staff ? (
            <Form.Item label="账号" htmlFor="staff-account">
              <Input id="staff-account" value={staff.account} disabled />
            </Form.Item>
          ) : (
            <Form.Item
              label="账号"
              name="account"
              extra="登录时使用，保存后不能修改"
              rules={[
                { required: true, message: StaffMsg.account },
                { pattern: /^\s*[A-Za-z0-9_.@-]{2,32}\s*$/, message: StaffMsg.account },
              ]}
            >
              <Input maxLength={34} autoComplete="off" />
            </Form.Item>
          )}
          {!staff && (
            <Form.Item label="初始密码" name="password" required extra={PASSWORD_HELP} rules={newPasswordRules}>
              <Input.Password autoComplete="new-password" maxLength={128} />
            </Form.Item>
          )}
        </div>
        <Form.Item
          label="角色"
          name="role"
          rules={[{ required: true, message: StaffMsg.role }]}
          extra={role ? ROLE_HELP[role] : undefined}
        >
          <Radio.Group optionType="button" options={STAFF_ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r] }))} />
        </Form.Item>
        {role === 'teacher' && (
          <Form.Item
            label="对应老师"
            name="teacherId"
            extra="该账号只能看到这位老师的课程"
            rules={[{ required: true, message: StaffMsg.teacher }]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              placeholder="选择老师"
              loading={teachers.isPending}
              options={(teachers.data ?? []).map((t) => ({
                value: t.id,
                label: tiedTo.has(t.id) ? `${t.name}（已对应账号：${tiedTo.get(t.id)}）` : t.name,
              }))}
            />
          </Form.Item>
        )}
        {staff && staff.id !== me?.id && (
          <Form.Item label="状态" name="enabled" valuePropName="checked" extra="停用后该员工的登录立即结束，不能再登录">
            <Switch checkedChildren="启用" unCheckedChildren="停用" />
          </Form.Item>
        )}
      </Form>
    </FormModal>
  );
}
