import { Alert, App, Descriptions, Modal } from 'antd';
import { amountText } from '../../../shared/format.ts';
import { useStoreClock } from '../../../shared/store-time.ts';
import dayjs from '../../../shared/dayjs.ts';
import { cutoffText } from '../drawer/lesson-panel.tsx';
import { useCancelLesson } from '../hooks/lessons.ts';
import type { BookingRow, SessionInfo } from '../types.ts';

/**
 * Cancels one member's booking of a lesson by its type's cutoff: before it the lesson is refunded
 * (and released when nobody is left), after it consumed as a late cancel (迟到取消).
 */
export default function CancelLessonModal({
  session,
  row,
  onClose,
  onReleased,
}: {
  session: SessionInfo;
  row: BookingRow;
  onClose: () => void;
  /** Nobody is left in the lesson: it is gone from the schedule (its drawer closes). */
  onReleased: () => void;
}) {
  const { message } = App.useApp();
  const clock = useStoreClock();
  const cancel = useCancelLesson(session.id);
  const cutoff = session.lesson?.cancelCutoffMinutes ?? 0;
  const deadline = dayjs(session.startTime).subtract(cutoff, 'minute').format('YYYY-MM-DD HH:mm:ss');
  const late = clock.now() >= deadline;
  const used = amountText(row.bigType, row.usedCount);
  return (
    <Modal
      open
      title="取消私教预约"
      okText="确认取消预约"
      okButtonProps={{ danger: true }}
      cancelText="返回"
      confirmLoading={cancel.loading}
      onOk={async () => {
        const done = await cancel.run({ id: row.reservationId, kind: 'reservation' });
        if (!done) return;
        void message.success(
          done.data.refunded ? `已取消预约，${used}已退回` : '已取消预约（迟到取消，本节课照常扣除）',
        );
        if (done.data.released) onReleased();
        else onClose();
      }}
      onCancel={onClose}
    >
      <Alert
        type={late ? 'error' : 'warning'}
        showIcon
        data-testid="lesson-cancel-notice"
        style={{ marginBottom: 12 }}
        message={
          late
            ? `已过取消时限（开课前${cutoffText(cutoff)}）：按迟到取消处理，本节课照常扣除 ${used}，不退回。`
            : `取消时限前取消（${cutoff ? `开课前${cutoffText(cutoff)}` : '开课前'}）：扣除的 ${used} 将退回 ${row.cardName}${session.realCount <= 1 ? '，老师的这段时间重新开放预约' : ''}。`
        }
      />
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="会员">
          {row.memberName} {row.memberMobile}
        </Descriptions.Item>
        <Descriptions.Item label="会员卡">{row.cardName}</Descriptions.Item>
        <Descriptions.Item label="上课时间">{session.startTime.slice(0, 16)}</Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
