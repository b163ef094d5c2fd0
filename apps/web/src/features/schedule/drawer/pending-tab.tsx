import { cancelLesson, cancelPendingCall, memberCardsForCourse, Msg, PendingStatus } from '@studio/contract';
import { App, Button, Space, Table, Tag, Tooltip } from 'antd';
import { useCan } from '../../../shared/profile.ts';
import { useCancelLesson } from '../hooks/lessons.ts';
import { HealthMark, useSessionHealthFlags } from '../../members/index.ts';
import { useCancelPending, useSessionPendings, useSignInWithBookedCard } from '../hooks/session.ts';
import type { PendingItem } from '../types.ts';
import { MobileText } from '../../../shared/mobile-text.tsx';

interface Props {
  sessionId: number;
  /** Opens the member's drawer; absent, names are plain text (a role that may not see members). */
  onMember?: (id: number) => void;
  /** Opens the sign-in confirm with the card picker (roles that may look up members' cards). */
  onSignIn: (p: PendingItem) => void;
  /**
   * A lesson (私教/小班): its pendings are cancelled by the lesson's cancel (its type's cutoff; the
   * lesson released when nobody is left, then `onReleased`).
   */
  lesson?: { onReleased: () => void };
}

const NO_CARD = '这条预约没有指定会员卡，请前台签到';

/** Mode 1: members booked without deduction, waiting to sign in on site. */
export function PendingTab({ sessionId, onMember, onSignIn, lesson }: Props) {
  const { modal, message } = App.useApp();
  const q = useSessionPendings(sessionId);
  const cancel = useCancelPending();
  const cancelOfLesson = useCancelLesson(sessionId);
  const canCancelPending = useCan(cancelPendingCall);
  const canCancelLesson = useCan(cancelLesson);
  const canCancel = lesson ? canCancelLesson : canCancelPending;
  const cancelLessonPending = async (p: PendingItem) => {
    const done = await cancelOfLesson.run({ id: p.pending.id, kind: 'pending' });
    if (!done) return;
    void message.success(done.data.refunded ? '已取消预约' : '已取消预约（迟到取消，本节课照常扣除）');
    if (done.data.released) lesson?.onReleased();
  };
  // A teacher cannot look up a member's cards: they sign in with the card the booking names.
  const canChooseCard = useCan(memberCardsForCourse);
  const quickSignIn = useSignInWithBookedCard();
  const healthFlags = useSessionHealthFlags(sessionId);
  const signIn = (p: PendingItem) =>
    canChooseCard
      ? onSignIn(p)
      : modal.confirm({
          title: '签到确认',
          content: `确认 ${p.member.name} 签到吗？将从其预约时选择的会员卡扣费。`,
          okText: '确认签到',
          cancelText: '取消',
          onOk: () => quickSignIn.run(p),
        });
  const confirmCancel = (p: PendingItem) =>
    modal.confirm({
      title: '取消预约',
      content: Msg.confirmCancelPending(p.member.name),
      okText: '确定',
      cancelText: '取消',
      onOk: () => (lesson ? cancelLessonPending(p) : cancel.run(p.pending.id)),
    });
  return (
    <Table<PendingItem>
      data-testid="pending-table"
      size="small"
      rowKey={(r) => r.pending.id}
      loading={q.isFetching}
      dataSource={q.data ?? []}
      pagination={false}
      locale={{ emptyText: '暂无待签到的预约' }}
      columns={[
        {
          title: '会员',
          key: 'name',
          render: (_, r) => (
            <>
              {onMember ? <a onClick={() => onMember(r.member.id)}>{r.member.name}</a> : r.member.name}
              {healthFlags.has(r.member.id) && <HealthMark memberId={r.member.id} />}
            </>
          ),
        },
        {
          title: '手机号',
          key: 'mobile',
          render: (_, r) => <MobileText memberId={r.member.id} mobile={r.member.mobile} />,
        },
        { title: '人数', dataIndex: 'studentCount', width: 56 },
        { title: '备注', dataIndex: 'remark', ellipsis: true },
        { title: '预约时间', key: 'time', width: 100, render: (_, r) => r.pending.createTime.slice(5, 16) },
        {
          title: '状态',
          key: 'status',
          width: 80,
          render: (_, r) =>
            r.pending.status === PendingStatus.WAITING ? (
              <Tag color="orange">待签到</Tag>
            ) : r.pending.status === PendingStatus.NO_SHOW ? (
              <Tag color="red">爽约</Tag>
            ) : (
              <Tag color="green">已签到</Tag>
            ),
        },
        {
          title: '操作',
          key: 'op',
          width: 150,
          render: (_, r) =>
            r.pending.status === PendingStatus.WAITING ? (
              <Space size={0}>
                {canCancel && (
                  <Button type="link" size="small" danger onClick={() => confirmCancel(r)}>
                    取消预约
                  </Button>
                )}
                {canChooseCard || r.mcId ? (
                  <Button type="link" size="small" onClick={() => signIn(r)}>
                    签到
                  </Button>
                ) : (
                  <Tooltip title={NO_CARD}>
                    <Button type="link" size="small" disabled>
                      签到
                    </Button>
                  </Tooltip>
                )}
              </Space>
            ) : null,
        },
      ]}
    />
  );
}
