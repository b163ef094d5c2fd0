import { LEAD_TRIAL_STATUS, LEAD_TRIAL_STATUS_LABEL, type LeadTrial } from '@studio/contract';
import {
  Button,
  DatePicker,
  Empty,
  Form,
  Modal,
  Popconfirm,
  Radio,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useStoreClock } from '../../shared/store-time.ts';
import { useFreeSlots, useLessonTypes } from '../schedule/index.ts';
import { useBookLessonTrial, useBookTrial, useCancelTrial, useTrialSessions } from './hooks.ts';

const STATUS_COLOR: Record<number, string> = { 1: 'blue', 2: 'green', 3: 'default' };

/**
 * The lead's 体验课: its trial classes, 约体验课 (a group class with a seat left, no card) while it
 * has none booked, and 取消 of a booked one (the owner or the manager: `mine`).
 */
export function LeadTrials({
  leadId,
  trials,
  mine,
  open,
}: {
  leadId: number;
  trials: LeadTrial[];
  mine: boolean;
  /** Not 已成交 nor 已流失. */
  open: boolean;
}) {
  const [booking, setBooking] = useState(false);
  const cancel = useCancelTrial();
  const booked = trials.some((t) => t.status === LEAD_TRIAL_STATUS.BOOKED);
  return (
    <div data-testid="lead-trials">
      {mine && open && (
        <Space style={{ marginBottom: 8 }}>
          <Button type="primary" disabled={booked} onClick={() => setBooking(true)}>
            约体验课
          </Button>
          {booked && <Typography.Text type="secondary">已约了一节体验课，上完或取消后才能再约</Typography.Text>}
        </Space>
      )}
      {trials.length === 0 ? (
        <Empty description="还没有约过体验课" />
      ) : (
        <Table<LeadTrial>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={trials}
          columns={[
            { title: '课程', dataIndex: 'courseName' },
            { title: '上课时间', dataIndex: 'startTime', render: (v: string) => v.slice(0, 16) },
            { title: '老师', dataIndex: 'teacherName', render: (v: string | null) => v ?? '-' },
            {
              title: '状态',
              dataIndex: 'status',
              render: (v: number) => <Tag color={STATUS_COLOR[v]}>{LEAD_TRIAL_STATUS_LABEL[v]}</Tag>,
            },
            ...(mine
              ? [
                  {
                    title: '操作',
                    key: 'op',
                    render: (_: unknown, t: LeadTrial) =>
                      t.status === LEAD_TRIAL_STATUS.BOOKED &&
                      (t.memberId !== null ? (
                        <Typography.Text type="secondary">体验卡预约，在课程中取消</Typography.Text>
                      ) : (
                        <Popconfirm
                          title="取消这节体验课？名额会空出来"
                          okText="取消体验课"
                          cancelText="不取消"
                          onConfirm={() => void cancel.run(t.id)}
                        >
                          <Button type="link" size="small" danger loading={cancel.loading}>
                            取消
                          </Button>
                        </Popconfirm>
                      )),
                  },
                ]
              : []),
          ]}
        />
      )}
      {booking && <BookTrialModal leadId={leadId} onClose={() => setBooking(false)} />}
    </div>
  );
}

/** 约体验课: 团课体验 (a day's group class with a seat left) or 私教体验 (a 1对1 type, teacher, day, free time). */
function BookTrialModal({ leadId, onClose }: { leadId: number; onClose: () => void }) {
  const clock = useStoreClock();
  const [kind, setKind] = useState<'group' | 'lesson'>('group');
  const [day, setDay] = useState<Dayjs>(() => dayjs(clock.today()));
  const [form] = Form.useForm<{ sessionId?: number; courseId?: number; teacherId?: number; time?: string }>();
  const date = day.format('YYYY-MM-DD');
  const sessions = useTrialSessions(date, clock.now());
  const types = useLessonTypes(kind === 'lesson');
  const courseId = Form.useWatch('courseId', form);
  const teacherId = Form.useWatch('teacherId', form);
  const slots = useFreeSlots({ courseId, teacherId, date: kind === 'lesson' ? date : undefined, members: 1 });
  const book = useBookTrial();
  const bookLesson = useBookLessonTrial();
  const oneOnOne = (types.data ?? []).filter((t) => t.kind === 'one_on_one');
  const type = oneOnOne.find((t) => t.id === courseId);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const done =
      kind === 'group'
        ? await book.run({ leadId, sessionId: v.sessionId! })
        : await bookLesson.run({ leadId, courseId: v.courseId!, teacherId: v.teacherId!, date, time: v.time! });
    if (done) onClose();
  };
  const list = sessions.data ?? [];
  const times = slots.data ?? [];
  return (
    <Modal
      open
      title="约体验课"
      okText="确定约课"
      cancelText="取消"
      confirmLoading={book.loading || bookLesson.loading}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Segmented
        block
        style={{ marginBottom: 16 }}
        value={kind}
        onChange={(k) => {
          setKind(k as 'group' | 'lesson');
          form.resetFields();
        }}
        options={[
          { value: 'group', label: '团课体验' },
          { value: 'lesson', label: '私教体验' },
        ]}
      />
      <Form form={form} layout="vertical">
        {kind === 'lesson' && (
          <>
            <Form.Item name="courseId" label="私教课程" rules={[{ required: true, message: '请选择课程' }]}>
              <Select
                aria-label="私教课程"
                loading={types.isLoading}
                placeholder="选择1对1私教课程"
                onChange={() => form.setFieldsValue({ teacherId: undefined, time: undefined })}
                options={oneOnOne.map((t) => ({ value: t.id, label: `${t.name}（${t.duration}分钟）` }))}
                notFoundContent="还没有1对1私教课程"
              />
            </Form.Item>
            <Form.Item name="teacherId" label="老师" rules={[{ required: true, message: '请选择老师' }]}>
              <Select
                aria-label="老师"
                placeholder={type ? '选择老师' : '先选课程'}
                disabled={!type}
                onChange={() => form.setFieldsValue({ time: undefined })}
                options={(type?.teachers ?? []).map((t) => ({ value: t.teacherId, label: t.name }))}
              />
            </Form.Item>
          </>
        )}
        <Form.Item label="上课日期">
          <DatePicker
            aria-label="上课日期"
            value={day}
            allowClear={false}
            disabledDate={(d) => d.format('YYYY-MM-DD') < clock.today()}
            onChange={(d) => {
              if (d) setDay(d);
              form.setFieldsValue({ sessionId: undefined, time: undefined });
            }}
          />
        </Form.Item>
        {kind === 'group' ? (
          <Form.Item name="sessionId" label="课程" rules={[{ required: true, message: '请选择课程' }]}>
            {list.length === 0 ? (
              <Empty description={sessions.isFetching ? '正在加载…' : '这一天没有还有名额的团课'} />
            ) : (
              <Radio.Group data-testid="trial-sessions" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
                {list.map((s) => (
                  <Radio key={s.id} value={s.id}>
                    {s.fromTime.slice(11, 16)}-{s.toTime.slice(11, 16)} {s.courseName} · {s.teacherName}（余
                    {s.reservableCount - s.realCount}位）
                  </Radio>
                ))}
              </Radio.Group>
            )}
          </Form.Item>
        ) : (
          <Form.Item name="time" label="老师空闲时间" rules={[{ required: true, message: '请选择时间' }]}>
            {!courseId || !teacherId ? (
              <Typography.Text type="secondary">选好课程和老师后显示可约时间</Typography.Text>
            ) : times.length === 0 ? (
              <Empty description={slots.isFetching ? '正在加载…' : '老师这一天没有空闲时间'} />
            ) : (
              <Select
                data-testid="trial-lesson-times"
                aria-label="老师空闲时间"
                placeholder="选择开始时间"
                options={times.map((s) => ({ value: s.startTime.slice(11, 16), label: s.startTime.slice(11, 16) }))}
              />
            )}
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
