import { Msg } from '@studio/contract';
import { Alert, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../../api/client.ts';
import { CardPicker, useMemberCards } from '../components/card-picker.tsx';
import { MemberPicker } from '../components/member-picker.tsx';
import { addPending, addReservation, signInPending, type PendingItem, type SessionInfo } from '../lib/calls.ts';
import { amountText } from '../lib/format.ts';
import { useAction } from '../lib/use-action.ts';

interface Props {
  session: SessionInfo;
  signInMode: boolean;
  /** Signing in this pending item (mode 1); otherwise a new booking. */
  pending?: PendingItem;
  onClose: () => void;
}

interface Values {
  memberId?: number;
  mcId?: number;
  studentCount: number;
  remark: string;
}

/** Book a member (mode 0: with a card, deducted now; mode 1: a pending booking) or confirm a sign-in. */
export default function BookingModal({ session, signInMode, pending, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const [selected, setSelected] = useState<PendingItem | undefined>(pending);
  const memberId = Form.useWatch('memberId', form);
  const mcId = Form.useWatch('mcId', form);
  const count = Form.useWatch('studentCount', form) ?? 1;
  const cards = useMemberCards(memberId, session.courseId);
  const card = cards.data?.find((c) => c.id === mcId);
  const signingIn = !!selected;
  const needCard = !signInMode || signingIn;

  const submit = useAction(
    async (v: Values) => {
      const remark = v.remark?.trim() ?? '';
      if (selected) return call(signInPending, { pendingId: selected.pending.id, mcId: v.mcId!, remark });
      if (signInMode) return call(addPending, { mid: v.memberId!, tid: session.id, studentCount: 1, remark });
      return call(addReservation, { mcId: v.mcId!, tid: session.id, studentCount: v.studentCount, remark });
    },
    signingIn ? '签到成功' : Msg.booked,
  );

  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (await submit.run(v)) {
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
      {signInMode && !signingIn && (
        <Alert style={{ marginBottom: 12 }} type="info" showIcon message="签到后扣费模式：预约时不扣卡，每次预约1人" />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          memberId: selected?.member.id,
          mcId: selected?.mcId ?? undefined,
          studentCount: selected?.studentCount ?? 1,
          remark: selected?.remark ?? '',
        }}
      >
        <Form.Item
          label="会员"
          name="memberId"
          rules={[{ required: true, type: 'number', min: 1, message: Msg.chooseMember }]}
        >
          <MemberPicker
            disabled={signingIn}
            initial={selected?.member}
            onChange={(id) => {
              form.setFieldsValue({ memberId: id, mcId: undefined });
            }}
          />
        </Form.Item>
        <Form.Item
          label="会员卡"
          name="mcId"
          rules={needCard ? [{ required: true, type: 'number', min: 1, message: Msg.fillAll }] : []}
        >
          <CardPicker mid={memberId} courseId={session.courseId} />
        </Form.Item>
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
