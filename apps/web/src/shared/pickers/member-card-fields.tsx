import { Form, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { CardPicker } from './card-picker.tsx';
import { MemberPicker } from './member-picker.tsx';

/**
 * 会员 then 会员卡, as every form booking a member onto a session asks them (预约会员, 候补, 添加学员):
 * choosing a member clears the card and tells the form's owner (`onMember`, who keeps the member for
 * the card picker: the form's watch reports a change a task later); the card picker lists the
 * member's cards for the session's course.
 */
export function MemberCardFields({
  form,
  names,
  courseId,
  memberId,
  onMember,
  memberRules,
  cardRules,
  disabled,
  initial,
}: {
  form: FormInstance;
  names: { member: string; card: string };
  courseId: number;
  memberId: number | undefined;
  onMember: (id: number | undefined) => void;
  memberRules: Rule[];
  cardRules: Rule[];
  disabled?: boolean;
  initial?: Parameters<typeof MemberPicker>[0]['initial'];
}) {
  return (
    <>
      <Form.Item label="会员" name={names.member} rules={memberRules}>
        <MemberPicker
          disabled={disabled}
          initial={initial}
          onChange={(id) => {
            onMember(id);
            form.setFieldsValue({ [names.member]: id, [names.card]: undefined });
          }}
        />
      </Form.Item>
      <Form.Item label="会员卡" name={names.card} rules={cardRules}>
        <CardPicker memberId={memberId} courseId={courseId} />
      </Form.Item>
    </>
  );
}
