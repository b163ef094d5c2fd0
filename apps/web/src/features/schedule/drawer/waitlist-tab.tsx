import { Alert, App, Button, Form, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import type { WaitRow } from '@studio/contract';
import { useState } from 'react';
import { addWaitlist, cancelWaitlist, Msg } from '@studio/contract';
import { useCan, useRole } from '../../../shared/profile.ts';
import { Link } from '../../../shared/router.tsx';
import { MemberCardFields } from '../../../shared/pickers/member-card-fields.tsx';
import { useBookingPolicy } from '../../../shared/booking-policy.ts';
import { useJoinWaitlist, useLeaveWaitlist, useSessionWaitlist } from '../hooks/session.ts';
import type { SessionInfo } from '../types.ts';
import { MobileText } from '../../../shared/mobile-text.tsx';

interface Props {
  session: SessionInfo;
  signInMode: boolean;
  ended: boolean;
  /** Opens the member's drawer; absent, names are plain text (a role that may not see members). */
  onMember?: (id: number) => void;
}

/**
 * Whether the desk can queue a member on the session now: it is full and not over, the store's
 * 预约规则 has the waitlist on, and promotion still happens (before the cutoff). `onlyWhenFull`:
 * the policy and the queue are asked only for a full session (the drawer's booking button).
 */
export function useWaitlistState(session: SessionInfo, onlyWhenFull = false) {
  const full = session.realCount >= session.reservableCount;
  const policy = useBookingPolicy(full || !onlyWhenFull);
  const q = useSessionWaitlist(session.id, full || !onlyWhenFull);
  // Nothing is said or offered before both answers are in: a queue that turns out off would
  // otherwise show 加入候补, or 已过候补截止时间, for a moment and take it back.
  const known = !!policy.data && !!q.data;
  const off = policy.data ? policy.data.waitlist !== 1 : false;
  // Waiting on, yet no more promotions: the cutoff before the start has passed.
  const closed = known && !off ? !q.data!.open : false;
  return {
    ready: !!policy.data,
    full,
    off,
    closed,
    cutoff: policy.data?.waitlistCutoffMinutes ?? 0,
    joinable: known && full && !off && !closed,
  };
}

/** 候补 is off in this store: how to turn it on (a manager, on 预约设置 → 预约规则), or whom to ask. */
export function WaitlistOff({ compact = false }: { compact?: boolean }) {
  const manager = useRole() === 'manager';
  const how = manager ? (
    <>
      可在 <Link to="/course_setting/course_setting">预约设置 → 预约规则</Link> 中开启“课程满员后可排队候补”
    </>
  ) : (
    '需要时请联系店长在 预约设置 → 预约规则 中开启'
  );
  if (compact)
    return (
      <Typography.Text type="secondary" data-testid="waitlist-off">
        本店未开启候补：{how}
      </Typography.Text>
    );
  return <Alert type="info" showIcon data-testid="waitlist-off" message="本店未开启候补" description={how} />;
}

/** 候补: the queue of a full session in order; the desk adds a member or takes one out. */
export function WaitlistTab({ session, signInMode, ended, onMember }: Props) {
  const { modal } = App.useApp();
  const q = useSessionWaitlist(session.id);
  const leave = useLeaveWaitlist();
  const [adding, setAdding] = useState(false);
  const canJoin = useCan(addWaitlist);
  const canLeave = useCan(cancelWaitlist);
  const state = useWaitlistState(session);
  // One message for the state the queue is in (ended, off, past its cutoff, or open).
  const notice = !state.ready ? null : ended ? (
    <Typography.Text type="secondary">课程已结束，不能再候补</Typography.Text>
  ) : state.off ? (
    <WaitlistOff />
  ) : state.closed ? (
    <Alert
      type="info"
      showIcon
      message={`已过候补截止时间（开课前 ${state.cutoff} 分钟），本节课不再自动递补`}
      description="排队中的会员不会再递补；有空位时请直接预约。"
    />
  ) : (
    <Space>
      {canJoin && (
        <Button onClick={() => setAdding(true)} disabled={!state.full} data-testid="add-wait">
          加入候补
        </Button>
      )}
      <Typography.Text type="secondary">
        {state.full
          ? `课程已满：有人取消或增加名额时，按顺序自动递补${signInMode ? '（签到时扣费）' : '并扣卡'}`
          : '课程还有空位，请直接预约'}
      </Typography.Text>
    </Space>
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {notice}
      <Table<WaitRow>
        data-testid="waitlist-table"
        size="small"
        rowKey="id"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: '暂无候补' }}
        columns={[
          { title: '顺序', dataIndex: 'position', width: 56 },
          {
            title: '会员',
            key: 'name',
            render: (_, r) => (onMember ? <a onClick={() => onMember(r.member.id)}>{r.member.name}</a> : r.member.name),
          },
          {
            title: '手机号',
            key: 'mobile',
            render: (_, r) => <MobileText memberId={r.member.id} mobile={r.member.mobile} />,
          },
          { title: '会员卡', key: 'card', render: (_, r) => r.card.cardName },
          { title: '人数', dataIndex: 'studentCount', width: 56 },
          {
            title: '加入',
            key: 'by',
            width: 120,
            render: (_, r) => (
              <span title={r.createTime}>
                {r.createTime.slice(5, 16)} {r.operator ? `（${r.operator}）` : '（会员）'}
              </span>
            ),
          },
          {
            title: '说明',
            key: 'skip',
            render: (_, r) => (r.skipReason ? <Tag color="orange">上次未递补：{r.skipReason}</Tag> : '-'),
          },
          {
            title: '操作',
            key: 'op',
            width: 90,
            render: (_, r) =>
              canLeave && (
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() =>
                    modal.confirm({
                      title: '移出候补',
                      content: `确定把 ${r.member.name} 移出候补吗？`,
                      okText: '确定',
                      cancelText: '取消',
                      onOk: () => leave.run(r.id),
                    })
                  }
                >
                  移出候补
                </Button>
              ),
          },
        ]}
      />
      {adding && <JoinWaitlistModal session={session} signInMode={signInMode} onClose={() => setAdding(false)} />}
    </Space>
  );
}

interface Values {
  memberId?: number;
  cardId?: number;
  studentCount: number;
}

/** 加入候补: a member and their card for a full session's queue. `onJoined` after success. */
export function JoinWaitlistModal({
  session,
  signInMode,
  onClose,
  onJoined,
}: {
  session: SessionInfo;
  signInMode: boolean;
  onClose: () => void;
  onJoined?: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [memberId, setMemberId] = useState<number | undefined>();
  const join = useJoinWaitlist(session.id);
  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (await join.run({ memberId: v.memberId!, cardId: v.cardId!, studentCount: v.studentCount })) {
      onClose();
      onJoined?.();
    }
  };
  return (
    <Modal
      open
      title="加入候补"
      okText="加入候补"
      cancelText="取消"
      confirmLoading={join.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        {session.courseName} {session.startTime.slice(0, 16)} · 已满 {session.realCount}/{session.reservableCount}
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" initialValues={{ studentCount: 1 }}>
        <MemberCardFields
          form={form}
          names={{ member: 'memberId', card: 'cardId' }}
          courseId={session.courseId}
          memberId={memberId}
          onMember={setMemberId}
          memberRules={[{ required: true, type: 'number', min: 1, message: Msg.chooseMember }]}
          cardRules={[{ required: true, type: 'number', min: 1, message: '请选择会员卡' }]}
        />
        <Form.Item
          label="上课人数"
          name="studentCount"
          rules={[{ required: true, type: 'number', min: 1, message: '上课人数最少为1' }]}
        >
          <InputNumber min={1} max={session.reservableCount || 1} precision={0} disabled={signInMode} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
