import { NoShowMsg, type NoShowRow } from '@studio/contract';
import { Alert, App, Button, Input, Table, Tag } from 'antd';
import { useRef } from 'react';
import { amountText } from '../../shared/format.ts';
import { useLiftSuspension, useMemberPolicyStatus, useWaiveNoShow } from './hooks.ts';

/** A member's no-shows (charge, waiver) and online-booking suspension, with the desk's waiver and lift. */
export function MemberNoShows({ memberId, compact = false }: { memberId: number; compact?: boolean }) {
  const { modal, message } = App.useApp();
  const q = useMemberPolicyStatus(memberId);
  const waive = useWaiveNoShow();
  const lift = useLiftSuspension();
  const reason = useRef('');
  const askWaive = (r: NoShowRow) => {
    reason.current = '';
    modal.confirm({
      title: '免除爽约扣费',
      content: (
        <>
          <p>
            退回 {r.bigType !== null ? amountText(r.bigType, r.fee) : r.fee} 到 {r.cardName}，并记入流水。
          </p>
          <Input.TextArea
            rows={2}
            maxLength={200}
            placeholder="免除原因（必填）"
            onChange={(e) => (reason.current = e.target.value)}
          />
        </>
      ),
      okText: '免除',
      cancelText: '取消',
      onOk: async () => {
        if (!reason.current.trim()) {
          void message.error(NoShowMsg.reason);
          throw new Error(NoShowMsg.reason);
        }
        await waive.run(r.pendingId, reason.current.trim());
      },
    });
  };
  const s = q.data;
  return (
    <>
      {s?.suspendedUntil && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="member-suspended"
          message={`因多次爽约，${s.suspendedUntil.slice(0, 16)} 前不能在线预约`}
          action={
            <Button size="small" loading={lift.loading} onClick={() => void lift.run(memberId)}>
              解除暂停
            </Button>
          }
        />
      )}
      <Table<NoShowRow>
        rowKey="pendingId"
        size="small"
        loading={q.isFetching}
        dataSource={s?.noShows ?? []}
        pagination={compact ? false : { pageSize: 10, hideOnSinglePage: true }}
        data-testid="member-no-shows"
        locale={{ emptyText: '近90天没有爽约' }}
        columns={[
          {
            title: '课程',
            key: 'session',
            render: (_, r) => `${r.session.courseName} ${r.session.startTime.slice(5, 16)}`,
          },
          {
            title: '扣费',
            key: 'fee',
            width: 100,
            render: (_, r) => (r.fee && r.bigType !== null ? amountText(r.bigType, r.fee) : '未扣费'),
          },
          {
            title: '',
            key: 'op',
            width: compact ? 90 : 220,
            render: (_, r) =>
              r.waivedTime ? (
                <Tag title={r.waiveReason ?? ''}>已免除{compact ? '' : `：${r.waiveReason ?? ''}`}</Tag>
              ) : r.fee ? (
                <Button type="link" size="small" onClick={() => askWaive(r)}>
                  免除扣费
                </Button>
              ) : null,
          },
        ]}
      />
    </>
  );
}
