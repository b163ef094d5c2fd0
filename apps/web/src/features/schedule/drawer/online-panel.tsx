import { VideoCameraOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Popconfirm, Typography } from 'antd';
import { useCancelOnlineRoom, useCreateOnlineRoom, useOnlineRoom, useRetryOnlineRoom } from '../hooks/session.ts';
import type { MeetingInfo, SessionInfo } from '../types.ts';

/** Polling while an on-demand room is being made after the first booking. */
const CREATING_POLL_MS = 3000;

/** Online classroom: none (a link to create one, no notice: an in-person class), on demand (waiting for a booking), or a room with its info. */
export function OnlinePanel({ s }: { s: SessionInfo }) {
  const create = useCreateOnlineRoom(s.id, s.realCount === 0);
  const cancel = useCancelOnlineRoom(s.id);
  const retry = useRetryOnlineRoom(s.id);
  const creating = s.isOnline === 1 && s.realCount > 0 && !s.meetingInfo;
  // The room of an on-demand session is made by the server after the first booking: ask for it
  // (and for the last failure) until it is there.
  const online = useOnlineRoom(s.id, creating, CREATING_POLL_MS);
  const m = ((creating ? online.data?.meetingInfo : s.meetingInfo) ?? {}) as MeetingInfo;
  const meetingError = creating && !online.data?.meetingInfo ? online.data?.meetingError : null;
  const onDemandWaiting = s.isOnline === 1 && s.realCount === 0;
  const roomExists = Boolean(m.joinUrl) && (s.isOnline === 2 || (s.isOnline === 1 && s.realCount > 0));

  if (s.isOnline === 0) {
    // An in-person class: no notice, only the way to add a room should the class need one.
    return (
      <div data-testid="online-create">
        <Button
          size="small"
          type="link"
          icon={<VideoCameraOutlined />}
          loading={create.loading}
          onClick={() => void create.run()}
          style={{ paddingInline: 0 }}
        >
          创建在线教室
        </Button>
      </div>
    );
  }
  const cancelButton = (
    <Popconfirm title="确定取消在线教室吗？" onConfirm={() => cancel.run()} okText="确定" cancelText="取消">
      <Button size="small" danger loading={cancel.loading}>
        取消在线教室
      </Button>
    </Popconfirm>
  );
  return (
    <Card
      size="small"
      title={
        <>
          <VideoCameraOutlined /> 在线教室
        </>
      }
      extra={cancelButton}
      data-testid="online-panel"
    >
      {onDemandWaiting && <Alert type="warning" showIcon message="等待会员预约后自动创建在线教室" />}
      {creating && !roomExists && (
        <Alert
          type={meetingError ? 'error' : 'info'}
          showIcon
          message={meetingError ? `在线教室创建失败：${meetingError}` : '正在创建在线教室…'}
          description={
            meetingError
              ? '系统会自动重试；也可以处理好原因（如在「门店设置 → 在线教室」填写会议服务地址）后立即重试。'
              : undefined
          }
          action={
            <Button size="small" type="primary" loading={retry.loading} onClick={() => void retry.run()}>
              {meetingError ? '立即重试' : '立即创建'}
            </Button>
          }
          data-testid="online-creating"
        />
      )}
      {roomExists && (
        <Descriptions size="small" column={1}>
          <Descriptions.Item label="会议号">
            <span data-testid="meeting-code">{m.meetingCode || '-'}</span>
          </Descriptions.Item>
          <Descriptions.Item label="加入链接">
            {m.joinUrl ? (
              <Typography.Link
                href={m.joinUrl}
                target="_blank"
                rel="noopener noreferrer"
                copyable={{ text: m.joinUrl }}
                data-testid="meeting-link"
              >
                {m.joinUrl}
              </Typography.Link>
            ) : (
              '-'
            )}
          </Descriptions.Item>
          <Descriptions.Item label="时长">
            {m.duration ? `${Math.round(m.duration / 60)}分钟` : '暂未上传'}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
