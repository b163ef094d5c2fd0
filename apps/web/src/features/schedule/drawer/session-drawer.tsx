import { DeleteOutlined, DownloadOutlined, EditOutlined, FileSearchOutlined, UserAddOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Skeleton, Space, Tabs, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useWrite } from '../../../shared/use-write.ts';
import { Notice } from '../../../shared/notice.tsx';
import { useCan } from '../../../shared/profile.ts';
import { Link } from '../../../shared/router.tsx';
import { useStoreClock } from '../../../shared/store-time.ts';
import {
  addMemberReservation,
  cancelTimetable,
  DEDUCT_AT_SIGN_IN,
  exportTimetableReservation,
  memberInfo,
  queryAuditLog,
  updateTimetable,
} from '@studio/contract';
import { useSessionInfo } from '../hooks/session.ts';
import type { BookingRow, PendingItem } from '../types.ts';
import { BookedTab } from './booked-tab.tsx';
import { HistoryTab } from './history-tab.tsx';
import { OnlinePanel } from './online-panel.tsx';
import { PendingTab } from './pending-tab.tsx';
import { SessionHeader } from './session-header.tsx';
import { WaitlistTab } from './waitlist-tab.tsx';

const EditSessionModal = lazy(() => import('../modals/edit-session-modal.tsx'));
const DeleteSessionModal = lazy(() => import('../modals/delete-session-modal.tsx'));
const BookingModal = lazy(() => import('../modals/booking-modal.tsx'));
const CancelBookingModal = lazy(() => import('../modals/cancel-booking-modal.tsx'));
const ReceiptModal = lazy(() => import('../modals/receipt-modal.tsx'));
const MemberDrawer = lazy(() => import('./member-drawer.tsx'));

type Open =
  | { kind: 'edit' }
  | { kind: 'delete' }
  | { kind: 'book'; pending?: PendingItem }
  | { kind: 'cancel'; row: BookingRow }
  | { kind: 'receipt'; row: BookingRow }
  | null;

/**
 * The session's details, online classroom, bookings, pendings and history. What the staff member's
 * role may not do is not offered (a teacher: sign-in and the online room only).
 */
export default function SessionDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const info = useSessionInfo(id);
  const canEdit = useCan(updateTimetable);
  const canDelete = useCan(cancelTimetable);
  // Booking also covers the paper and the sheet of the bookings (what members paid).
  const canBook = useCan(addMemberReservation);
  const canExport = useCan(exportTimetableReservation);
  const canSeeMember = useCan(memberInfo);
  const canAudit = useCan(queryAuditLog);

  const clock = useStoreClock();
  const [open, setOpen] = useState<Open>(null);
  const [memberId, setMemberId] = useState<number | null>(null);
  const onMember = canSeeMember ? setMemberId : undefined;
  const s = info.data;
  const signInMode = s?.deductionMode === DEDUCT_AT_SIGN_IN;

  const exporting = useWrite(async () => {
    const { exportSession } = await import('../lib/export-xlsx.ts');
    if (s) await exportSession(s);
  });

  // The spec's tabs in both modes: in 预约即扣费 the 待签到 tab still holds the pendings kept from
  // 签到后扣费 (they can be signed in or cancelled); it is simply not the one opened first.
  const tabs = [
    {
      key: 'pending',
      label: '待签到',
      children: (
        <PendingTab sessionId={id} onMember={onMember} onSignIn={(p) => setOpen({ kind: 'book', pending: p })} />
      ),
    },
    {
      key: 'booked',
      label: signInMode ? '已签到' : '已预约',
      children: (
        <BookedTab
          sessionId={id}
          onMember={onMember}
          onCancel={(row) => setOpen({ kind: 'cancel', row })}
          onReceipt={canBook ? (row) => setOpen({ kind: 'receipt', row }) : undefined}
          canMarkNow={!!s && s.startTime.slice(0, 10) <= clock.today()}
        />
      ),
    },
    {
      key: 'waitlist',
      label: s?.waitCount ? `候补（${s.waitCount}）` : '候补',
      children: s ? <WaitlistTab session={s} signInMode={signInMode} ended={s.ended} onMember={onMember} /> : null,
    },
    { key: 'history', label: '预约记录', children: <HistoryTab sessionId={id} /> },
  ];

  return (
    <Drawer
      open
      width={860}
      title={
        s ? (
          <>
            {s.courseName} 课程详情{' '}
            {s.ended && (
              <Tag color="default" data-testid="session-ended">
                已结束
              </Tag>
            )}
          </>
        ) : (
          '课程详情'
        )
      }
      onClose={onClose}
      destroyOnHidden
      extra={
        s && (
          <Space>
            {canAudit && (
              <Link to={`/audit/log?tid=${s.id}`} style={{ marginRight: 8 }}>
                <FileSearchOutlined /> 操作日志
              </Link>
            )}
            {canEdit && (
              <Button icon={<EditOutlined />} onClick={() => setOpen({ kind: 'edit' })}>
                编辑
              </Button>
            )}
            {canDelete && (
              <Button danger icon={<DeleteOutlined />} onClick={() => setOpen({ kind: 'delete' })}>
                删除
              </Button>
            )}
          </Space>
        )
      }
    >
      {info.isPending ? (
        <Skeleton active />
      ) : !s ? (
        <Notice kind="warning" title="课程不存在或已删除" />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <SessionHeader s={s} signInMode={signInMode} />
          {!(s.ended && s.isOnline === 0) && <OnlinePanel s={s} />}
          {s.ended && (
            <Alert
              type="info"
              showIcon
              message={`本节课已于 ${s.endTime.slice(0, 16)} 结束：不能再预约${canBook ? '；取消预约或删除课程会再次确认' : ''}。`}
            />
          )}
          {(canBook || canExport) && (
            <Space>
              {canBook && !s.ended && (
                <Button type="primary" icon={<UserAddOutlined />} onClick={() => setOpen({ kind: 'book' })}>
                  预约会员
                </Button>
              )}
              {canExport && (
                <Button icon={<DownloadOutlined />} loading={exporting.loading} onClick={() => void exporting.run()}>
                  导出本节预约
                </Button>
              )}
            </Space>
          )}
          <Tabs key={signInMode ? 'm1' : 'm0'} defaultActiveKey={signInMode ? 'pending' : 'booked'} items={tabs} />
        </Space>
      )}
      <Suspense fallback={null}>
        {s && open?.kind === 'edit' && <EditSessionModal session={s} onClose={() => setOpen(null)} />}
        {s && open?.kind === 'delete' && (
          <DeleteSessionModal
            session={s}
            onClose={() => setOpen(null)}
            onDeleted={() => {
              setOpen(null);
              onClose();
            }}
          />
        )}
        {s && open?.kind === 'book' && (
          <BookingModal session={s} signInMode={signInMode} pending={open.pending} onClose={() => setOpen(null)} />
        )}
        {open?.kind === 'cancel' && (
          <CancelBookingModal
            row={open.row}
            lateForMembers={s?.memberRule.lateCancel}
            ended={s?.ended ? s.endTime : undefined}
            onClose={() => setOpen(null)}
          />
        )}
        {s && open?.kind === 'receipt' && <ReceiptModal session={s} row={open.row} onClose={() => setOpen(null)} />}
        {memberId && <MemberDrawer id={memberId} onClose={() => setMemberId(null)} />}
      </Suspense>
    </Drawer>
  );
}
