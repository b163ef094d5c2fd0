import { Alert, App, Button, Form, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import type { WaitRow } from '@studio/contract';
import { useState } from 'react';
import { addWaitlist, cancelWaitlist, Msg } from '@studio/contract';
import { useCan } from '../../../shared/profile.ts';
import { CardPicker } from '../../../shared/pickers/card-picker.tsx';
import { MemberPicker } from '../../../shared/pickers/member-picker.tsx';
import { useJoinWaitlist, useLeaveWaitlist, useSessionWaitlist } from '../hooks/session.ts';
import type { SessionInfo } from '../types.ts';

interface Props {
  session: SessionInfo;
  signInMode: boolean;
  ended: boolean;
  /** Opens the member's drawer; absent, names are plain text (a role that may not see members). */
  onMember?: (id: number) => void;
}

/** 候补: the queue of a full session in order; the desk adds a member or takes one out. */
export function WaitlistTab({ session, signInMode, ended, onMember }: Props) {
  const { modal } = App.useApp();
  const q = useSessionWaitlist(session.id);
  const leave = useLeaveWaitlist();
  const [adding, setAdding] = useState(false);
  const canJoin = useCan(addWaitlist);
  const canLeave = useCan(cancelWaitlist);
  const full = session.realCount >= session.reservableCount;
  const open = q.data?.open ?? true;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {!open && !ended && (
        <Alert
          type="info"
          showIcon
          message="本节课不再自动递补：候补未开启，或已过候补截止时间（预约设置 → 预约规则）"
        />
      )}
      <Space>
        {canJoin && (
          <Button onClick={() => setAdding(true)} disabled={!full || !open || ended} data-testid="add-wait">
            加入候补
          </Button>
        )}
        <Typography.Text type="secondary">
          {full ? '课程已满：有人取消或增加名额时，按顺序自动递补并扣卡' : '课程还有空位，请直接预约'}
        </Typography.Text>
      </Space>
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
          { title: '手机号', key: 'mobile', render: (_, r) => r.member.mobile },
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
      {adding && <JoinModal session={session} signInMode={signInMode} onClose={() => setAdding(false)} />}
    </Space>
  );
}

interface Values {
  memberId?: number;
  cardId?: number;
  studentCount: number;
}

function JoinModal({
  session,
  signInMode,
  onClose,
}: {
  session: SessionInfo;
  signInMode: boolean;
  onClose: () => void;
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
    if (await join.run({ memberId: v.memberId!, cardId: v.cardId!, studentCount: v.studentCount })) onClose();
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
        <Form.Item
          label="会员"
          name="memberId"
          rules={[{ required: true, type: 'number', min: 1, message: Msg.chooseMember }]}
        >
          <MemberPicker
            onChange={(id) => {
              setMemberId(id);
              form.setFieldsValue({ memberId: id, cardId: undefined });
            }}
          />
        </Form.Item>
        <Form.Item
          label="会员卡"
          name="cardId"
          rules={[{ required: true, type: 'number', min: 1, message: '请选择会员卡' }]}
        >
          <CardPicker memberId={memberId} courseId={session.courseId} />
        </Form.Item>
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
