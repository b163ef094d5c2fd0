import { resetTeacherCalendarFeed, teacherCalendarFeed, type CalendarFeed } from '@studio/contract';
import { Button, Modal, Popconfirm, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { call } from '../../api/client.ts';
import { useWrite } from '../../shared/use-write.ts';

/**
 * 日历订阅 of one teacher: the private address of their classes a phone or computer calendar
 * subscribes to (each class with the seats taken), and 重新生成 ending the old address.
 */
export function CalendarFeedModal({
  teacher,
  onClose,
}: {
  teacher: { id: number; name: string };
  onClose: () => void;
}) {
  const [feed, setFeed] = useState<CalendarFeed | null>(null);
  const open = useWrite(() => call(teacherCalendarFeed, { teacherId: teacher.id }));
  const reset = useWrite(() => call(resetTeacherCalendarFeed, { teacherId: teacher.id }), {
    success: '已重新生成，旧地址已失效',
  });
  useEffect(() => {
    void open.run().then((r) => r && setFeed(r.data));
    // Asked once when the dialog opens for this teacher.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [teacher.id]);

  return (
    <Modal open title={`${teacher.name}的上课日历`} onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>}>
      <Typography.Paragraph type="secondary">
        在手机或电脑的日历中订阅这个地址，{teacher.name}的课程（含已约人数）会自动出现在日历里，课程变动随日历刷新更新。
      </Typography.Paragraph>
      {feed ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph
            copyable={{ text: feed.url, tooltips: ['复制', '已复制'] }}
            data-testid="teacher-feed-url"
          >
            {feed.url}
          </Typography.Paragraph>
          <Space>
            <Button type="primary" href={feed.webcal}>
              用日历打开
            </Button>
            <Popconfirm
              title="重新生成后，已订阅的旧地址将不再更新，确定吗？"
              okText="重新生成"
              cancelText="取消"
              onConfirm={() => reset.run().then((r) => r && setFeed(r.data))}
            >
              <Button loading={reset.loading}>重新生成地址</Button>
            </Popconfirm>
          </Space>
        </Space>
      ) : (
        <Typography.Text type="secondary">{open.loading ? '正在获取…' : ''}</Typography.Text>
      )}
    </Modal>
  );
}
