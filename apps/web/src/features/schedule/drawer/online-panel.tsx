import { VideoCameraOutlined } from '@ant-design/icons';
import { Msg } from '@studio/contract';
import { Alert, Button, Card, Descriptions, Popconfirm, Typography } from 'antd';
import { call } from '../../../api/client.ts';
import type { MeetingInfo, SessionInfo } from '../lib/calls.ts';
import { cancelOnline, createMeeting } from '../lib/online-calls.ts';
import { useAction } from '../lib/use-action.ts';

/** Online classroom: none (create prompt), on demand (waiting for a booking), or a room with its info. */
export function OnlinePanel({ s }: { s: SessionInfo }) {
  const create = useAction(
    () => call(createMeeting!, { id: s.id, type: s.realCount === 0 ? 1 : 2 }),
    Msg.onlineCreated,
  );
  const cancel = useAction(() => call(cancelOnline!, { id: s.id }), Msg.onlineCancelled);
  const m = (s.meetingInfo ?? {}) as MeetingInfo;
  const onDemandWaiting = s.isOnline === 1 && s.realCount === 0;
  const roomExists = s.isOnline === 2 || (s.isOnline === 1 && s.realCount > 0);

  if (s.isOnline === 0) {
    if (!createMeeting) return null;
    return (
      <Alert
        type="info"
        showIcon
        icon={<VideoCameraOutlined />}
        message="本节课还没有在线教室"
        action={
          <Button size="small" type="primary" loading={create.loading} onClick={() => void create.run()}>
            创建在线教室
          </Button>
        }
      />
    );
  }
  const cancelButton = cancelOnline && (
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
      {roomExists && (
        <Descriptions size="small" column={1}>
          <Descriptions.Item label="会议号">{m.meetingCode || '-'}</Descriptions.Item>
          <Descriptions.Item label="加入链接">
            {m.joinUrl ? (
              <Typography.Link href={m.joinUrl} target="_blank" copyable={{ text: m.joinUrl }}>
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
