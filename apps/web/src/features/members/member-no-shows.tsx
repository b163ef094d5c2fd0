import {
  markAttendanceCall,
  NoShowMsg,
  waiveLateCancel as waiveLateCall,
  waiveNoShow as waiveNoShowCall,
} from '@studio/contract';
import { Alert, App, Button, Input, Table, Tag } from 'antd';
import { useRef } from 'react';
import { amountText } from '../../shared/format.ts';
import { useCan } from '../../shared/profile.ts';
import {
  useLiftSuspension,
  useMarkCameAfterAll,
  useMemberPolicyStatus,
  useWaiveLateCancel,
  useWaiveNoShow,
} from './hooks.ts';

/**
 * One charge the policy kept: a no-show (爽约) or a late cancel (迟到取消). A no-show of 预约即扣费 is a
 * booking (`booking`) not marked 到店: nothing to waive, the desk may record that the member came.
 */
interface KeptRow {
  key: string;
  kind: '爽约' | '迟到取消';
  id: number;
  booking: boolean;
  session: { courseName: string; startTime: string };
  fee: number;
  cardName: string | null;
  bigType: number | null;
  waivedTime: string | null;
  waiveReason: string | null;
}

/**
 * A member's no-shows and late cancels (what each kept, its waiver) and online-booking suspension,
 * with the desk's waiver and lift.
 */
export function MemberNoShows({ memberId, compact = false }: { memberId: number; compact?: boolean }) {
  const { modal, message } = App.useApp();
  const q = useMemberPolicyStatus(memberId);
  const waiveNoShow = useWaiveNoShow();
  const waiveLate = useWaiveLateCancel();
  const lift = useLiftSuspension();
  const cameAfterAll = useMarkCameAfterAll();
  const canMark = useCan(markAttendanceCall);
  // Waivers give money back: the manager's.
  const canWaive = { 爽约: useCan(waiveNoShowCall), 迟到取消: useCan(waiveLateCall) };
  const reason = useRef('');
  const askWaive = (r: KeptRow) => {
    reason.current = '';
    modal.confirm({
      title: r.kind === '爽约' ? '免除爽约扣费' : '免除迟到取消扣费',
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
        if (r.kind === '爽约') await waiveNoShow.run(r.id, reason.current.trim());
        else await waiveLate.run(r.id, reason.current.trim());
      },
    });
  };
  const s = q.data;
  const rows: KeptRow[] = [
    ...(s?.noShows ?? []).map((r) =>
      r.pendingId !== null
        ? { ...r, key: `p${r.pendingId}`, kind: '爽约' as const, id: r.pendingId, booking: false }
        : { ...r, key: `b${r.reservationId}`, kind: '爽约' as const, id: r.reservationId ?? 0, booking: true },
    ),
    ...(s?.lateCancels ?? []).map((r) => ({
      ...r,
      key: `r${r.reservationId}`,
      kind: '迟到取消' as const,
      id: r.reservationId,
      booking: false,
    })),
  ].sort((a, b) => b.session.startTime.localeCompare(a.session.startTime));
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
      <Table<KeptRow>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={rows}
        pagination={compact ? false : { pageSize: 10, hideOnSinglePage: true }}
        data-testid="member-no-shows"
        locale={{ emptyText: '近90天没有爽约或迟到取消' }}
        columns={[
          { title: '类型', dataIndex: 'kind', key: 'kind', width: compact ? 80 : 90 },
          {
            title: '课程',
            key: 'session',
            render: (_, r) => `${r.session.courseName} ${r.session.startTime.slice(5, 16)}`,
          },
          {
            title: '扣费',
            key: 'fee',
            width: 100,
            render: (_, r) =>
              r.booking ? '预约时已扣' : r.fee && r.bigType !== null ? amountText(r.bigType, r.fee) : '未扣费',
          },
          {
            title: '',
            key: 'op',
            width: compact ? 90 : 220,
            render: (_, r) =>
              r.booking ? (
                canMark && (
                  <Button
                    type="link"
                    size="small"
                    loading={cameAfterAll.loading}
                    onClick={() => void cameAfterAll.run(r.id)}
                  >
                    补记到店
                  </Button>
                )
              ) : r.waivedTime ? (
                <Tag title={r.waiveReason ?? ''}>已免除{compact ? '' : `：${r.waiveReason ?? ''}`}</Tag>
              ) : r.fee && canWaive[r.kind] ? (
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
