import { Alert, DatePicker, Form, Modal, Radio, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../../shared/dayjs.ts';
import { useFreeSlots, useMoveLesson } from '../hooks/lessons.ts';
import type { SessionInfo } from '../types.ts';

interface Values {
  date?: Dayjs;
  slot?: string;
}

/** 调整时间: moves a lesson to another start its teacher has free (its members are told). */
export default function MoveLessonModal({ session, onClose }: { session: SessionInfo; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const date = Form.useWatch('date', form);
  const slots = useFreeSlots({
    courseId: session.courseId,
    teacherId: session.teacherId,
    date: date?.format('YYYY-MM-DD'),
    members: Math.max(1, session.realCount),
  });
  const move = useMoveLesson();
  const offered = (slots.data ?? []).filter((s) => s.startTime !== session.startTime);
  return (
    <Modal
      open
      title="调整上课时间"
      okText="确认调整"
      cancelText="取消"
      confirmLoading={move.loading}
      onCancel={onClose}
      onOk={async () => {
        let v: Values;
        try {
          v = await form.validateFields();
        } catch {
          return;
        }
        if (await move.run({ id: session.id, date: v.date!.format('YYYY-MM-DD'), time: v.slot! })) onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {session.courseName} · {session.teacherName} · 现在 {session.startTime.slice(0, 16)}
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" initialValues={{ date: dayjs(session.startTime.slice(0, 10)) }}>
        <Form.Item label="日期" name="date" rules={[{ required: true, message: '请选择日期' }]}>
          <DatePicker
            style={{ width: '100%' }}
            allowClear={false}
            onChange={() => form.setFieldValue('slot', undefined)}
          />
        </Form.Item>
        <Form.Item
          label="可约时间"
          name="slot"
          rules={[{ required: true, message: '请选择时间' }]}
          extra={date && !slots.isFetching && !offered.length ? '该老师当天没有可约时间，请换一天' : undefined}
        >
          <Radio.Group
            optionType="button"
            aria-label="可约时间"
            options={offered.map((s) => ({ value: s.startTime.slice(11, 16), label: s.startTime.slice(11, 16) }))}
          />
        </Form.Item>
      </Form>
      <Alert type="info" showIcon message="调整后会员会收到通知" />
    </Modal>
  );
}
