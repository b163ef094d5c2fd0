import { Msg } from '@studio/contract';
import { Alert, Modal, Typography } from 'antd';
import { useDeleteSession } from '../hooks/session.ts';
import type { SessionInfo } from '../types.ts';

interface Props {
  session: SessionInfo;
  onClose: () => void;
  onDeleted: () => void;
}

/** Confirm deleting a session: every booking is cancelled and count cards refunded. */
export default function DeleteSessionModal({ session, onClose, onDeleted }: Props) {
  const del = useDeleteSession(session.id, session.ended);
  return (
    <Modal
      open
      title="删除课程"
      okText={session.ended ? '确认删除已结束的课程' : '确认删除'}
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={del.loading}
      onOk={async () => {
        if (await del.run()) onDeleted();
      }}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        确定删除 {session.startTime.slice(0, 16)} 的「{session.courseName}」吗？
      </Typography.Paragraph>
      {session.ended && (
        <Alert
          type="error"
          showIcon
          data-testid="ended-notice"
          style={{ marginBottom: 12 }}
          message={`这节课已于 ${session.endTime.slice(0, 16)} 结束。删除会取消它的全部预约并全额退回。`}
        />
      )}
      <Alert type="warning" showIcon message={Msg.deleteSessionWarning} />
      {session.realCount > 0 && (
        <Typography.Paragraph type="danger" style={{ marginTop: 12 }}>
          当前已有 {session.realCount} 人预约。
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
