import { LESSON_KIND_LABEL, Msg, PendingStatus } from '@studio/contract';
import { Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useCardsForCourse } from '../../../shared/pickers/card-picker.tsx';
import { MemberCardFields } from '../../../shared/pickers/member-card-fields.tsx';
import { useAddLessonMember } from '../hooks/lessons.ts';
import { useSessionBookings, useSessionPendings } from '../hooks/session.ts';
import type { SessionInfo } from '../types.ts';

interface Values {
  mid?: number;
  mcId?: number;
}

/**
 * 添加学员: the desk adds a member, with a card that can pay for the lesson, to a booked 小班 or 1对2
 * that still has room (the group booking's member and card pickers). A member already in the lesson
 * and a card that cannot pay are refused before the call.
 */
export default function AddLessonMemberModal({ session, onClose }: { session: SessionInfo; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  // The card picker follows the member at once (the form's watch reports a change a task later).
  const [memberId, setMemberId] = useState<number | undefined>();
  const cards = useCardsForCourse(memberId, session.courseId);
  const bookings = useSessionBookings(session.id, 1);
  const pendings = useSessionPendings(session.id);
  const add = useAddLessonMember(session.id);
  const lesson = session.lesson!;
  const inLesson = new Set([
    ...(bookings.data?.list ?? []).map((b) => b.memberId),
    ...(pendings.data ?? []).filter((p) => p.pending.status === PendingStatus.WAITING).map((p) => p.memberId),
  ]);

  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (await add.run({ mid: v.mid!, mcId: v.mcId! })) onClose();
  };

  return (
    <Modal
      open
      title="添加学员"
      okText="确认添加"
      cancelText="取消"
      confirmLoading={add.loading}
      onOk={onOk}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {session.courseName}（{LESSON_KIND_LABEL[lesson.kind]}） {session.startTime.slice(0, 16)} ·{' '}
        {session.teacherName} · 已有 {session.realCount}/{lesson.maxMembers} 人
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical">
        <MemberCardFields
          form={form}
          names={{ member: 'mid', card: 'mcId' }}
          courseId={session.courseId}
          memberId={memberId}
          onMember={setMemberId}
          memberRules={[
            { required: true, type: 'number', min: 1, message: Msg.chooseMember },
            {
              validator: (_, v: number | undefined) =>
                v && inLesson.has(v) ? Promise.reject(new Error(Msg.alreadyBooked)) : Promise.resolve(),
            },
          ]}
          cardRules={[
            { required: true, type: 'number', min: 1, message: '请选择会员卡' },
            {
              validator: (_, v: number | undefined) => {
                const card = cards.data?.find((c) => c.id === v);
                return card && !card.usable
                  ? Promise.reject(new Error(card.reason ?? '该会员卡不能用于这节课'))
                  : Promise.resolve();
              },
            },
          ]}
        />
      </Form>
    </Modal>
  );
}
