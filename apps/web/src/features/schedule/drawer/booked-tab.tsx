import {
  BOOKED_PAGE_SIZE,
  cancelReservationCall,
  markAttendanceCall,
  memberCardLedger,
  ReservationStatus,
} from '@studio/contract';
import { Button, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { amountText } from '../../../shared/format.ts';
import { useCan } from '../../../shared/profile.ts';
import { HealthMark, useSessionHealthFlags } from '../../members/index.ts';
import { useMarkAttendance, useSessionBookings } from '../hooks/session.ts';
import type { BookingRow } from '../types.ts';
import { drawerPaging } from './paging.ts';
import { MobileText } from '../../../shared/mobile-text.tsx';

interface Props {
  sessionId: number;
  /** Opens the member's drawer; absent, names are plain text (a role that may not see members). */
  onMember?: (id: number) => void;
  onCancel: (row: BookingRow) => void;
  /** Absent for a role that may not print receipts. */
  onReceipt?: (row: BookingRow) => void;
  /** Who came may be marked: the class starts today or has started (预约即扣费's 到店). */
  canMarkNow?: boolean;
}

/** Booked (or, in sign-in mode, signed-in) members, 10 a page. */
export function BookedTab({ sessionId, onMember, onCancel, onReceipt, canMarkNow = false }: Props) {
  const [page, setPage] = useState(1);
  const q = useSessionBookings(sessionId, page);
  const canCancel = useCan(cancelReservationCall);
  const mark = useMarkAttendance();
  // 到店 for a booking paid when made (a pending signed in came already: 已签到).
  const canMark = useCan(markAttendanceCall) && canMarkNow;
  const markable = (r: BookingRow) => canMark && r.status === ReservationStatus.BOOKED;
  const hasActions = canCancel || !!onReceipt || canMark;
  // What each booking took from its card is the card ledger's business (not a teacher's).
  const canSeeCharges = useCan(memberCardLedger);
  const healthFlags = useSessionHealthFlags(sessionId);
  return (
    <Table<BookingRow>
      data-testid="booked-table"
      size="small"
      rowKey="reservationId"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: '暂无预约' }}
      pagination={drawerPaging(page, BOOKED_PAGE_SIZE, q.data?.total, setPage)}
      columns={[
        {
          title: '会员',
          dataIndex: 'memberName',
          render: (v, r) => (
            <>
              {onMember ? (
                <a className="member-link" onClick={() => onMember(r.memberId)}>
                  {v}
                </a>
              ) : (
                <span className="member-link">{v}</span>
              )}
              {healthFlags.has(r.memberId) && <HealthMark memberId={r.memberId} />}
              <div style={{ color: '#6b6b6b', fontSize: 12 }}>
                <MobileText memberId={r.memberId} mobile={r.memberMobile} />
              </div>
            </>
          ),
        },
        {
          title: '状态',
          key: 'status',
          width: 72,
          // Each row says what it is: a booking paid when made (marked 到店 or not: the desk, the
          // teacher or the member's scan), or a pending signed in on site.
          render: (_, r) =>
            r.status === ReservationStatus.SIGNED_IN ? (
              <Tag color="green">已签到</Tag>
            ) : r.attendedTime ? (
              <Tag color="green" title={`到店 ${r.attendedTime.slice(11, 16)}`} data-testid="attended">
                已到店
              </Tag>
            ) : (
              <Tag color="blue">已预约</Tag>
            ),
        },
        { title: '会员卡', dataIndex: 'cardName', ellipsis: true },
        { title: '人数', dataIndex: 'studentCount', width: 56 },
        ...(canSeeCharges
          ? [
              {
                title: '扣除',
                key: 'used',
                width: 80,
                render: (_: unknown, r: BookingRow) => amountText(r.bigType, r.usedCount),
              },
            ]
          : []),
        { title: '备注', dataIndex: 'remark', ellipsis: true },
        { title: '预约时间', dataIndex: 'createTime', width: 100, render: (v: string) => v.slice(5, 16) },
        ...(hasActions
          ? [
              {
                title: '操作',
                key: 'op',
                width: canMark ? 210 : 150,
                render: (_: unknown, r: BookingRow) => (
                  <Space size={0}>
                    {markable(r) &&
                      (r.attendedTime ? (
                        <Button
                          type="link"
                          size="small"
                          loading={mark.loading}
                          onClick={() => void mark.run(r.reservationId, false)}
                        >
                          撤销到店
                        </Button>
                      ) : (
                        <Button
                          type="link"
                          size="small"
                          loading={mark.loading}
                          onClick={() => void mark.run(r.reservationId, true)}
                        >
                          到店
                        </Button>
                      ))}
                    {canCancel && (
                      <Button type="link" size="small" danger onClick={() => onCancel(r)}>
                        取消预约
                      </Button>
                    )}
                    {onReceipt && (
                      <Button type="link" size="small" onClick={() => onReceipt(r)}>
                        打印小票
                      </Button>
                    )}
                  </Space>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}
