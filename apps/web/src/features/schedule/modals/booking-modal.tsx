import { Msg } from '@studio/contract';
import { Alert, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { amountText } from '../../../shared/format.ts';
import { useCardsForCourse } from '../../../shared/pickers/card-picker.tsx';
import { MemberCardFields } from '../../../shared/pickers/member-card-fields.tsx';
import { useBookMember } from '../hooks/session.ts';
import type { PendingItem, SessionInfo } from '../types.ts';

interface Props {
  session: SessionInfo;
  signInMode: boolean;
  /** Signing in this pending item (mode 1); otherwise a new booking. */
  pending?: PendingItem;
  onClose: () => void;
}

interface Values {
  memberId?: number;
  cardId?: number;
  studentCount: number;
  remark: string;
}

/** Book a member (mode 0: with a card, deducted now; mode 1: a pending booking) or confirm a sign-in. */
export default function BookingModal({ session, signInMode, pending, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const [selected, setSelected] = useState<PendingItem | undefined>(pending);
  // The card picker follows the member at once: Form.useWatch reports a change only a task later,
  // so a card picker fed by it stayed disabled for a moment after the member was chosen.
  const [memberId, setMemberId] = useState<number | undefined>(pending?.member.id);
  const cardId = Form.useWatch('cardId', form);
  const count = Form.useWatch('studentCount', form) ?? 1;
  const cards = useCardsForCourse(memberId, session.courseId);
  const card = cards.data?.find((c) => c.id === cardId);
  const signingIn = !!selected;
  // A pending keeps its card too (charged at sign-in, prefilled there): every booking names one.
  const needCard = true;

  const submit = useBookMember(session.id, signInMode, selected?.pending.id);

  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const booked = await submit.run({
      memberId: v.memberId!,
      cardId: v.cardId!,
      studentCount: v.studentCount,
      remark: v.remark?.trim() ?? '',
    });
    if (booked) {
      setSelected(undefined);
      form.setFieldsValue({ studentCount: 1, remark: '' });
      onClose();
    }
  };

  return (
    <Modal
      open
      title={signingIn ? '签到确认' : signInMode ? '预约会员（签到后扣费）' : '预约会员'}
      okText={signingIn ? '确认签到' : '确认预约'}
      cancelText="取消"
      confirmLoading={submit.loading}
      onOk={onOk}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {session.courseName} {session.startTime.slice(0, 16)} · 已预约 {session.realCount}/{session.reservableCount}
      </Typography.Paragraph>
      {!signingIn && session.realCount >= session.reservableCount && (
        <Alert
          style={{ marginBottom: 12 }}
          type="warning"
          showIcon
          data-testid="booking-full"
          message={`已满 ${session.realCount}/${session.reservableCount}：课程人数已满，不能再预约`}
        />
      )}
      {!signingIn && session.memberRule.booking && (
        <Alert
          style={{ marginBottom: 12 }}
          type="info"
          showIcon
          data-testid="override-notice"
          message={`会员现在不能自行预约：${session.memberRule.booking}。前台仍可代约，预约记录中会注明越过规则。`}
        />
      )}
      {signInMode && !signingIn && (
        <Alert style={{ marginBottom: 12 }} type="info" showIcon message="签到后扣费模式：预约时不扣卡，每次预约1人" />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          memberId: selected?.member.id,
          cardId: selected?.mcId ?? undefined,
          studentCount: selected?.studentCount ?? 1,
          remark: selected?.remark ?? '',
        }}
      >
        <MemberCardFields
          form={form}
          names={{ member: 'memberId', card: 'cardId' }}
          courseId={session.courseId}
          memberId={memberId}
          onMember={setMemberId}
          disabled={signingIn}
          initial={selected?.member}
          memberRules={[{ required: true, type: 'number', min: 1, message: Msg.chooseMember }]}
          cardRules={needCard ? [{ required: true, type: 'number', min: 1, message: Msg.fillAll }] : []}
        />
        <Form.Item
          label="上课人数"
          name="studentCount"
          rules={[{ required: true, type: 'number', min: 1, message: '上课人数最少为1' }]}
        >
          <InputNumber min={1} max={session.reservableCount || 1} precision={0} disabled={signInMode} />
        </Form.Item>
        {card && (
          <Form.Item label="本次扣除">
            <span data-testid="total-charge">{amountText(card.bigType, card.perCount * (signInMode ? 1 : count))}</span>
            <Typography.Text type="secondary">
              （每人 {amountText(card.bigType, card.perCount)} × {signInMode ? 1 : count} 人）
            </Typography.Text>
          </Form.Item>
        )}
        <Form.Item label="备注" name="remark">
          <Input.TextArea rows={2} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
