import { RefMsg, type zMemberRow } from '@studio/contract';
import { DatePicker, Form, Input, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import type { z } from 'zod';
import dayjs from '../../shared/dayjs.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useMember } from '../../shared/reference.ts';
import { useStoreClock } from '../../shared/store-time.ts';
import { useSaveMember } from './hooks.ts';

export type Member = z.infer<typeof zMemberRow>;

interface Values {
  name: string;
  mobile: string;
  gender: 0 | 1 | 2;
  birthday?: Dayjs | null;
}

export const GENDERS = [
  { value: 1, label: '男' },
  { value: 2, label: '女' },
  { value: 0, label: '未知' },
];

/** Create or edit a member; a mobile already used in the store gets the server's 409 message. */
export default function MemberFormModal({
  member,
  onClose,
}: {
  member: Member | null;
  onClose: (id?: number) => void;
}) {
  const [form] = Form.useForm<Values>();
  const save = useSaveMember(member?.id ?? null);
  const clock = useStoreClock();
  // A list shows the desk the mobile masked: the form edits the member's page's whole one.
  const masked = !!member?.mobile.includes('*');
  const full = useMember(masked ? member!.id : undefined);
  if (masked && !full.data) return null;
  const shown = full.data ?? member;
  const submit = (v: Values) =>
    save.run({
      name: v.name,
      mobile: v.mobile.trim(),
      gender: v.gender,
      birthday: v.birthday ? v.birthday.format('YYYY-MM-DD') : null,
    });
  return (
    <FormModal
      title={member ? '编辑会员' : '添加会员'}
      form={form}
      loading={save.loading}
      submit={submit}
      onDone={(id) => onClose(id)}
      onCancel={() => onClose()}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          shown
            ? {
                name: shown.name,
                mobile: shown.mobile,
                gender: shown.gender as 0 | 1 | 2,
                birthday: shown.birthday ? dayjs(shown.birthday) : null,
              }
            : { gender: 0 }
        }
      >
        <Form.Item label="姓名" name="name" rules={[{ required: true, whitespace: true, message: RefMsg.memberName }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item
          label="手机号"
          name="mobile"
          rules={[
            { required: true, message: '请输入手机号' },
            { pattern: /^1\d{10}$/, message: '请输入正确的11位手机号' },
          ]}
        >
          <Input maxLength={11} />
        </Form.Item>
        <Form.Item label="性别" name="gender">
          <Radio.Group options={GENDERS} />
        </Form.Item>
        <Form.Item label="出生日期" name="birthday">
          <DatePicker style={{ width: 220 }} disabledDate={(d) => d.format('YYYY-MM-DD') > clock.today()} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
