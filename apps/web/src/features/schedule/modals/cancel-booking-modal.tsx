import { Alert, Descriptions, Modal } from 'antd';
import { amountText } from '../../../shared/format.ts';
import { useCancelBooking } from '../hooks/session.ts';
import type { BookingRow } from '../types.ts';

/** Confirm cancelling a booking; what was deducted is refunded. */
export default function CancelBookingModal({
  row,
  lateForMembers = false,
  ended,
  onClose,
}: {
  row: BookingRow;
  /** A member could no longer cancel free now (预约规则): the desk does it anyway, recorded as an override. */
  lateForMembers?: boolean;
  /** The end of the session when it has ended: cancelling is confirmed as such. */
  ended?: string;
  onClose: () => void;
}) {
  const cancel = useCancelBooking(row.reservationId, ended !== undefined);
  return (
    <Modal
      open
      title="取消预约"
      okText="确认取消预约"
      okButtonProps={{ danger: true }}
      cancelText="返回"
      confirmLoading={cancel.loading}
      onOk={async () => {
        if (await cancel.run()) onClose();
      }}
      onCancel={onClose}
    >
      {ended ? (
        <Alert
          type="error"
          showIcon
          data-testid="ended-notice"
          style={{ marginBottom: 12 }}
          message={`这节课已于 ${ended.slice(0, 16)} 结束。确认取消将退回 ${amountText(row.bigType, row.usedCount)} 到 ${row.cardName}。`}
        />
      ) : (
        <Alert
          type="warning"
          showIcon
          data-testid="refund-notice"
          message={`取消预约后，扣除的 ${amountText(row.bigType, row.usedCount)} 将退回 ${row.cardName}。`}
          style={{ marginBottom: 12 }}
        />
      )}
      {lateForMembers && !ended && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="override-notice"
          message="已过会员免费取消时间（预约规则）。前台取消仍全额退回，预约记录中会注明越过规则。"
        />
      )}
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="会员">
          {row.memberName} {row.memberMobile}
        </Descriptions.Item>
        <Descriptions.Item label="会员卡">{row.cardName}</Descriptions.Item>
        <Descriptions.Item label="人数">{row.studentCount}</Descriptions.Item>
        <Descriptions.Item label="退回">{amountText(row.bigType, row.usedCount)}</Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
