import { amountText, type MyBooking } from '@studio/contract';
import { Button, Dialog, DotLoading, Tag, Toast } from 'antd-mobile';
import { useState } from 'react';
import { CalendarLink } from './calendar-link.tsx';
import { whenText } from './format.ts';
import { useMyBookings } from './queries.ts';
import { useCancel, useCancelLesson } from './writes.ts';
import { Pager } from './pager.tsx';

const COLORS: Record<MyBooking['kind'], string> = {
  booked: 'primary',
  signed: 'success',
  pending: 'warning',
  waiting: 'default',
  cancelled: 'default',
  noShow: 'danger',
  ended: 'default',
};

/** 我的预约: upcoming (bookings, held seats, waits) and past, with cancel and the online room's link. */
export function MyBookings() {
  const [state, setState] = useState<'upcoming' | 'past'>('upcoming');
  const [page, setPage] = useState(1);
  const { data } = useMyBookings(state, page);
  const { mutateAsync: cancelMine } = useCancel();
  const { mutateAsync: cancelLesson } = useCancelLesson();

  const cancel = async (b: MyBooking) => {
    const ok = await Dialog.confirm({
      title: b.kind === 'waiting' ? '退出候补' : '取消预约',
      content: (
        <>
          <div>
            确定{b.kind === 'waiting' ? '退出' : '取消'}「{b.session.courseName}」吗？
          </div>
          {b.cancelCost && (
            <div className="cancel-cost" data-testid="cancel-cost">
              {b.cancelCost}
            </div>
          )}
        </>
      ),
      confirmText: '确定',
      cancelText: '再想想',
    });
    if (!ok) return;
    try {
      if (b.lesson) {
        // A lesson (私教/小班): by its type's cutoff, refunded before it, kept after.
        const refunded = await cancelLesson({ id: b.id, pending: b.kind === 'pending' });
        // A held seat (签到后扣费) had nothing deducted: only a late cancel charges it.
        const held = b.kind === 'pending';
        const done = refunded
          ? held
            ? '已取消'
            : '已取消，已退回会员卡'
          : held
            ? '已取消，本节照常扣除'
            : '已取消，本节不退回';
        Toast.show({ icon: 'success', content: done });
        return;
      }
      await cancelMine({ kind: b.kind === 'waiting' || b.kind === 'pending' ? b.kind : 'booked', id: b.id });
      Toast.show({ icon: 'success', content: '已取消' });
    } catch (e) {
      Toast.show({ content: (e as Error).message, duration: 3000 });
    }
  };

  return (
    <>
      <div className="seg" role="tablist">
        {(
          [
            ['upcoming', '待上课'],
            ['past', '已结束'],
          ] as const
        ).map(([k, label]) => (
          <button
            key={k}
            role="tab"
            aria-selected={state === k}
            className={state === k ? 'on' : ''}
            onClick={() => {
              setState(k);
              setPage(1);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="cards">
        {!data && (
          <div className="empty">
            <DotLoading color="primary" />
          </div>
        )}
        {data?.list.length === 0 && <div className="empty">{state === 'upcoming' ? '还没有预约' : '没有记录'}</div>}
        {data?.list.map((b) => (
          <div key={`${b.kind}-${b.id}`} className="booking" data-testid="my-booking">
            <div className="top">
              <span>{b.session.courseName}</span>
              {/* 已到店 is green, as on the desk's screens. */}
              <Tag color={b.attended ? 'success' : b.lesson === 'pending' ? 'warning' : COLORS[b.kind]}>{b.state}</Tag>
            </div>
            <div className="meta">
              {whenText(b.session.fromTime, b.session.toTime)} · {b.session.teacherName}
              {b.session.areaName ? ` · ${b.session.areaName}` : ''}
            </div>
            {b.card && (
              <div className="meta">
                {b.card.cardName}
                {b.amount > 0 ? `，扣除 ${amountText(b.card.bigType, b.amount)}` : ''}
                {b.studentCount > 1 ? `，${b.studentCount}人` : ''}
              </div>
            )}
            <div className="ops">
              {b.joinUrl && (
                <Button className="touch" color="primary" onClick={() => void window.open(b.joinUrl!, '_blank')}>
                  进入在线教室
                </Button>
              )}
              {state === 'upcoming' && ['booked', 'pending', 'waiting'].includes(b.kind) && !b.attended && (
                <Button className="touch" onClick={() => cancel(b)}>
                  {b.kind === 'waiting' ? '退出候补' : '取消预约'}
                </Button>
              )}
            </div>
          </div>
        ))}
        <Pager page={page} total={data?.total} onPage={setPage} />
      </div>
      <div className="calendar-entry">
        <CalendarLink />
      </div>
    </>
  );
}
