import {
  ClockCircleOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileSearchOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { Alert, Button, Drawer, Skeleton, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useWrite } from '../../../shared/use-write.ts';
import { Notice } from '../../../shared/notice.tsx';
import { useCan } from '../../../shared/profile.ts';
import { Link } from '../../../shared/router.tsx';
import { useStoreClock } from '../../../shared/store-time.ts';
import {
  addMemberReservation,
  addWaitlist,
  cancelTimetable,
  DEDUCT_AT_SIGN_IN,
  exportTimetableReservation,
  memberInfo,
  queryAuditLog,
  ReservationStatus,
  updateTimetable,
} from '@studio/contract';
import { useSessionBookings, useSessionInfo } from '../hooks/session.ts';
import type { BookingRow, PendingItem, SessionInfo } from '../types.ts';
import { BookedTab } from './booked-tab.tsx';
import { HistoryTab } from './history-tab.tsx';
import { OnlinePanel } from './online-panel.tsx';
import { PendingTab } from './pending-tab.tsx';
import { SessionHeader } from './session-header.tsx';
import { LessonPanel } from './lesson-panel.tsx';
import { TrialRows } from './trial-rows.tsx';
import { JoinWaitlistModal, useWaitlistState, WaitlistOff, WaitlistTab } from './waitlist-tab.tsx';

const EditSessionModal = lazy(() => import('../modals/edit-session-modal.tsx'));
const DeleteSessionModal = lazy(() => import('../modals/delete-session-modal.tsx'));
const BookingModal = lazy(() => import('../modals/booking-modal.tsx'));
const CancelBookingModal = lazy(() => import('../modals/cancel-booking-modal.tsx'));
const ReceiptModal = lazy(() => import('../modals/receipt-modal.tsx'));
const MemberDrawer = lazy(() => import('./member-drawer.tsx'));
const MoveLessonModal = lazy(() => import('../modals/move-lesson-modal.tsx'));
const CancelLessonModal = lazy(() => import('../modals/cancel-lesson-modal.tsx'));
const AddLessonMemberModal = lazy(() => import('../modals/add-lesson-member-modal.tsx'));

type Open =
  | { kind: 'wait' }
  | { kind: 'edit' }
  | { kind: 'delete' }
  | { kind: 'book'; pending?: PendingItem }
  | { kind: 'cancel'; row: BookingRow }
  | { kind: 'receipt'; row: BookingRow }
  | { kind: 'move' }
  | { kind: 'addMember' }
  | null;

/**
 * 预约会员, or for a full class 已满 before any form: the booking button says so (disabled) and
 * 加入候补 is offered in its place, or why the queue is closed (off: how to turn it on).
 */
function BookOrQueue({ s, onBook, onQueue }: { s: SessionInfo; onBook: () => void; onQueue: () => void }) {
  const state = useWaitlistState(s, true);
  const canQueue = useCan(addWaitlist);
  if (!state.full)
    return (
      <Button type="primary" icon={<UserAddOutlined />} onClick={onBook}>
        预约会员
      </Button>
    );
  return (
    <>
      <Tooltip title="课程人数已满，无法预约：可加入候补，或编辑课程增加名额">
        <Button icon={<UserAddOutlined />} disabled data-testid="book-full">
          已满 {s.realCount}/{s.reservableCount}
        </Button>
      </Tooltip>
      {canQueue && state.joinable && (
        <Button type="primary" icon={<ClockCircleOutlined />} onClick={onQueue} data-testid="queue-full">
          加入候补
        </Button>
      )}
      {state.ready && state.off && <WaitlistOff compact />}
      {state.closed && <Typography.Text type="secondary">已过候补截止时间，不能再候补</Typography.Text>}
    </>
  );
}

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
  const [tab, setTab] = useState<string | null>(null);
  const [memberId, setMemberId] = useState<number | null>(null);
  const onMember = canSeeMember ? setMemberId : undefined;
  const s = info.data;
  const signInMode = s?.deductionMode === DEDUCT_AT_SIGN_IN;
  // In 签到后扣费, bookings paid when made (before a switch) share the tab of the signed-in ones:
  // its name says so when there are some, so they are found and marked 到店.
  const firstBookings = useSessionBookings(id, 1);
  const paidBefore = signInMode && (firstBookings.data?.list ?? []).some((r) => r.status === ReservationStatus.BOOKED);

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
        <PendingTab
          sessionId={id}
          onMember={onMember}
          onSignIn={(p) => setOpen({ kind: 'book', pending: p })}
          lesson={s?.lesson ? { onReleased: onClose } : undefined}
        />
      ),
    },
    {
      key: 'booked',
      label: signInMode ? (paidBefore ? '已签到 · 已预约' : '已签到') : '已预约',
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
              <Link to={`/audit/log?session=${s.id}`} style={{ marginRight: 8 }}>
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
          {s.lesson && (
            <LessonPanel s={s} onMove={() => setOpen({ kind: 'move' })} onAdd={() => setOpen({ kind: 'addMember' })} />
          )}
          {!(s.ended && s.isOnline === 0) && <OnlinePanel s={s} />}
          {s.ended && (
            <Alert
              type="info"
              showIcon
              message={`本节课已于 ${s.endTime.slice(0, 16)} 结束：不能再预约${canBook ? '；取消预约或删除课程会再次确认' : ''}。`}
            />
          )}
          {(canBook || canExport) && (
            <Space wrap>
              {canBook && !s.ended && !s.lesson && (
                <BookOrQueue s={s} onBook={() => setOpen({ kind: 'book' })} onQueue={() => setOpen({ kind: 'wait' })} />
              )}
              {canExport && (
                <Button icon={<DownloadOutlined />} loading={exporting.loading} onClick={() => void exporting.run()}>
                  导出本节预约
                </Button>
              )}
            </Space>
          )}
          <TrialRows sessionId={id} canMarkNow={s.startTime.slice(0, 10) <= clock.today()} />
          <Tabs
            key={signInMode ? 'm1' : 'm0'}
            activeKey={tab ?? (signInMode ? 'pending' : 'booked')}
            onChange={setTab}
            items={tabs}
          />
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
        {s && open?.kind === 'wait' && (
          <JoinWaitlistModal
            session={s}
            signInMode={signInMode}
            onClose={() => setOpen(null)}
            onJoined={() => setTab('waitlist')}
          />
        )}
        {s && open?.kind === 'book' && (
          <BookingModal session={s} signInMode={signInMode} pending={open.pending} onClose={() => setOpen(null)} />
        )}
        {s && open?.kind === 'move' && <MoveLessonModal session={s} onClose={() => setOpen(null)} />}
        {s?.lesson && open?.kind === 'addMember' && <AddLessonMemberModal session={s} onClose={() => setOpen(null)} />}
        {s?.lesson && open?.kind === 'cancel' && (
          <CancelLessonModal
            session={s}
            row={open.row}
            onClose={() => setOpen(null)}
            onReleased={() => {
              setOpen(null);
              onClose();
            }}
          />
        )}
        {!s?.lesson && open?.kind === 'cancel' && (
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
