import { Msg, PendingStatus } from '@studio/contract';
import { App, Button, Space, Table, Tag } from 'antd';
import { useCancelPending, useSessionPendings } from '../hooks/session.ts';
import type { PendingItem } from '../types.ts';

interface Props {
  sessionId: number;
  onMember: (id: number) => void;
  onSignIn: (p: PendingItem) => void;
}

/** Mode 1: members booked without deduction, waiting to sign in on site. */
export function PendingTab({ sessionId, onMember, onSignIn }: Props) {
  const { modal } = App.useApp();
  const q = useSessionPendings(sessionId);
  const cancel = useCancelPending();
  const confirmCancel = (p: PendingItem) =>
    modal.confirm({
      title: '取消预约',
      content: Msg.confirmCancelPending(p.member.name),
      okText: '确定',
      cancelText: '取消',
      onOk: () => cancel.run(p.pending.id),
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
          render: (_, r) => <a onClick={() => onMember(r.member.id)}>{r.member.name}</a>,
        },
        { title: '手机号', key: 'mobile', render: (_, r) => r.member.mobile },
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
                <Button type="link" size="small" danger onClick={() => confirmCancel(r)}>
                  取消预约
                </Button>
                <Button type="link" size="small" onClick={() => onSignIn(r)}>
                  签到
                </Button>
              </Space>
            ) : null,
        },
      ]}
    />
  );
}
