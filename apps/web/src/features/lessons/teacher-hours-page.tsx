import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { LessonMsg, type zTeacherHours } from '@studio/contract';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  TimePicker,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import dayjs from '../../shared/dayjs.ts';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { FormModal } from '../../shared/form-modal.tsx';
import { actingPost, useProfile } from '../../shared/profile.ts';
import { useTeachers } from '../../shared/reference.ts';
import { useSearchParams } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { useAddHoursException, useDeleteHoursException, useSaveWeeklyHours, useTeacherHours } from './hooks.ts';

type Hours = z.infer<typeof zTeacherHours>;
type Exception = Hours['exceptions'][number];

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const dayName = (w: number) => `星期${'一二三四五六日'[w - 1]}`;
const HM = 'HH:mm';
const clock = (t: string) => dayjs(t === '24:00' ? '23:59' : t, HM);

/**
 * /teacher/hours (老师 → 工作时间): a teacher's weekly working hours (several spans a day) and the
 * dates that differ (休息: the whole day or a span; 加班: extra hours). Members and the desk book
 * 私教/小班 only inside these hours. A manager or the desk picks the teacher; a teacher account sees
 * and sets its own.
 */
export default function TeacherHoursPage() {
  const profile = useProfile();
  const own = actingPost(profile.data)?.role === 'teacher' ? (actingPost(profile.data)?.teacherId ?? null) : null;
  const teachers = useTeachers();
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('teacher_id')) || null;
  const teacherId = own ?? asked ?? teachers.data?.[0]?.id ?? null;
  const teacher = teachers.data?.find((t) => t.id === teacherId);
  const q = useTeacherHours(teacherId);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        {own == null ? (
          <Space>
            <Typography.Text id="hours-teacher-label">老师</Typography.Text>
            <Select
              aria-labelledby="hours-teacher-label"
              showSearch
              optionFilterProp="label"
              style={{ width: 220 }}
              value={teacherId ?? undefined}
              placeholder="选择老师"
              loading={teachers.isPending}
              options={(teachers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              onChange={(id: number) => setParams({ teacher_id: String(id) })}
            />
          </Space>
        ) : (
          <Typography.Text>
            我的工作时间{teacher ? `（${teacher.name}）` : ''}：会员和前台只能在这些时间里约你的私教课
          </Typography.Text>
        )}
      </Card>
      {teacherId == null ? (
        teachers.data && <Empty description="还没有老师，请先在「老师」中添加" />
      ) : !q.data ? (
        <Spin />
      ) : (
        <>
          <WeeklyCard key={`w${teacherId}`} hours={q.data} />
          <ExceptionCard key={`e${teacherId}`} hours={q.data} />
        </>
      )}
    </Space>
  );
}

interface Span {
  start?: Dayjs | null;
  end?: Dayjs | null;
}
type WeekValues = Record<`d${(typeof WEEKDAYS)[number]}`, Span[]>;

function toWeekValues(weekly: Hours['weekly']): WeekValues {
  return Object.fromEntries(
    WEEKDAYS.map((w) => [
      `d${w}`,
      weekly.filter((s) => s.weekday === w).map((s) => ({ start: clock(s.startTime), end: clock(s.endTime) })),
    ]),
  ) as WeekValues;
}

/** The spans of one weekday must each end after they start and not overlap (the contract's words). */
function dayProblem(weekday: number, spans: Span[] | undefined): string | null {
  const done = (spans ?? []).filter((s) => s?.start && s?.end) as Required<Span>[];
  if (done.length !== (spans ?? []).length) return LessonMsg.time;
  const sorted = done.map((s) => [s.start!.format(HM), s.end!.format(HM)]).sort((a, b) => a[0].localeCompare(b[0]));
  if (sorted.some(([a, b]) => a >= b)) return LessonMsg.span;
  for (let i = 1; i < sorted.length; i++) if (sorted[i][0] < sorted[i - 1][1]) return LessonMsg.spanOverlap(weekday);
  return null;
}

function WeeklyCard({ hours }: { hours: Hours }) {
  const [form] = Form.useForm<WeekValues>();
  const save = useSaveWeeklyHours();
  const initial = toWeekValues(hours.weekly);
  useEffect(() => form.setFieldsValue(toWeekValues(hours.weekly)), [hours.weekly, form]);
  const copyMonday = () => {
    const monday = (form.getFieldValue('d1') as Span[] | undefined) ?? [];
    form.setFieldsValue({ d2: monday, d3: monday, d4: monday, d5: monday });
  };
  const submit = (v: WeekValues) =>
    void save.run({
      teacherId: hours.teacherId,
      weekly: WEEKDAYS.flatMap((w) =>
        (v[`d${w}`] ?? []).map((s) => ({ weekday: w, startTime: s.start!.format(HM), endTime: s.end!.format(HM) })),
      ),
    });
  return (
    <Card title="每周工作时间" extra={<Button onClick={copyMonday}>把星期一的时间复制到星期二至星期五</Button>}>
      <Form<WeekValues> form={form} initialValues={initial} onFinish={submit} labelCol={{ flex: '80px' }}>
        {WEEKDAYS.map((w) => (
          <Form.List
            key={w}
            name={`d${w}`}
            rules={[
              {
                validator: async (_, spans: Span[] | undefined) => {
                  const problem = dayProblem(w, spans);
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          >
            {(fields, { add, remove }, { errors }) => (
              <Form.Item label={dayName(w)} style={{ marginBottom: 12 }}>
                <Space wrap align="center" data-testid={`weekday-${w}`}>
                  {fields.length === 0 && <Tag>休息</Tag>}
                  {fields.map((f) => (
                    <Space.Compact key={f.key}>
                      <Form.Item name={[f.name, 'start']} noStyle>
                        <TimePicker
                          aria-label={`${dayName(w)}第${f.name + 1}段开始`}
                          format={HM}
                          minuteStep={15}
                          needConfirm={false}
                          placeholder="开始"
                          style={{ width: 100 }}
                        />
                      </Form.Item>
                      <Form.Item name={[f.name, 'end']} noStyle>
                        <TimePicker
                          aria-label={`${dayName(w)}第${f.name + 1}段结束`}
                          format={HM}
                          minuteStep={15}
                          needConfirm={false}
                          placeholder="结束"
                          style={{ width: 100 }}
                        />
                      </Form.Item>
                      <Button
                        aria-label={`删除${dayName(w)}第${f.name + 1}段`}
                        icon={<MinusCircleOutlined />}
                        onClick={() => remove(f.name)}
                      />
                    </Space.Compact>
                  ))}
                  <Button
                    type="dashed"
                    size="small"
                    icon={<PlusOutlined />}
                    aria-label={`${dayName(w)}添加时段`}
                    onClick={() => add(fields.length ? {} : { start: clock('09:00'), end: clock('18:00') })}
                  >
                    添加时段
                  </Button>
                </Space>
                <Form.ErrorList errors={errors} />
              </Form.Item>
            )}
          </Form.List>
        ))}
        <Button type="primary" htmlType="submit" loading={save.loading}>
          保存每周工作时间
        </Button>
      </Form>
    </Card>
  );
}

function ExceptionCard({ hours }: { hours: Hours }) {
  const [adding, setAdding] = useState(false);
  const del = useDeleteHoursException();
  const clockNow = useStoreClock();
  const today = clockNow.today();
  const rows = hours.exceptions.filter((e) => e.date >= today);
  return (
    <Card
      title="休息与加班"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          添加休息或加班
        </Button>
      }
    >
      <Table<Exception>
        rowKey="id"
        size="middle"
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: '今天以后没有休息或加班' }}
        columns={[
          { title: '日期', dataIndex: 'date', width: 160, render: (d: string) => `${d} ${dayjs(d).format('ddd')}` },
          {
            title: '类型',
            dataIndex: 'kind',
            width: 90,
            render: (k: Exception['kind']) =>
              k === 'off' ? <Tag color="orange">休息</Tag> : <Tag color="green">加班</Tag>,
          },
          {
            title: '时间',
            width: 140,
            render: (_, e) => (e.startTime ? `${e.startTime}-${e.endTime}` : '全天'),
          },
          { title: '原因', dataIndex: 'reason', render: (v: string | null) => v || '-' },
          {
            title: '操作',
            width: 80,
            render: (_, e) => (
              <DeleteLink
                title={`确定删除 ${e.date} 的${e.kind === 'off' ? '休息' : '加班'}吗？`}
                onConfirm={() => del.run(e.id)}
              />
            ),
          },
        ]}
      />
      {adding && <ExceptionModal teacherId={hours.teacherId} onClose={() => setAdding(false)} />}
    </Card>
  );
}

interface ExceptionValues {
  date?: Dayjs;
  kind: 'off' | 'extra';
  whole: 'day' | 'span';
  start?: Dayjs | null;
  end?: Dayjs | null;
  reason?: string;
}

function ExceptionModal({ teacherId, onClose }: { teacherId: number; onClose: () => void }) {
  const [form] = Form.useForm<ExceptionValues>();
  const add = useAddHoursException();
  const kind = Form.useWatch('kind', form) ?? 'off';
  const whole = Form.useWatch('whole', form) ?? 'day';
  const withSpan = kind === 'extra' || whole === 'span';
  const submit = (v: ExceptionValues) =>
    add.run({
      teacherId,
      date: v.date!.format('YYYY-MM-DD'),
      kind: v.kind,
      startTime: withSpan && v.start ? v.start.format(HM) : null,
      endTime: withSpan && v.end ? v.end.format(HM) : null,
      reason: v.reason?.trim() || null,
    });
  const spanMsg = kind === 'extra' ? LessonMsg.extraSpan : LessonMsg.time;
  return (
    <FormModal title="添加休息或加班" form={form} loading={add.loading} submit={submit} onCancel={onClose}>
      <Form<ExceptionValues> form={form} layout="vertical" initialValues={{ kind: 'off', whole: 'day' }}>
        <Form.Item label="日期" name="date" rules={[{ required: true, message: '请选择日期' }]}>
          <DatePicker style={{ width: 200 }} />
        </Form.Item>
        <Form.Item label="类型" name="kind" rules={[{ required: true, message: LessonMsg.exceptionKind }]}>
          <Radio.Group
            options={[
              { value: 'off', label: '休息（不可约）' },
              { value: 'extra', label: '加班（额外可约）' },
            ]}
          />
        </Form.Item>
        {kind === 'off' && (
          <Form.Item label="休息时间" name="whole">
            <Radio.Group
              options={[
                { value: 'day', label: '全天' },
                { value: 'span', label: '某个时段' },
              ]}
            />
          </Form.Item>
        )}
        {withSpan && (
          <Space align="start">
            <Form.Item label="开始" name="start" rules={[{ required: true, message: spanMsg }]}>
              <TimePicker format={HM} minuteStep={15} needConfirm={false} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item
              label="结束"
              name="end"
              dependencies={['start']}
              rules={[
                { required: true, message: spanMsg },
                ({ getFieldValue }) => ({
                  validator: async (_, end: Dayjs | null | undefined) => {
                    const start = getFieldValue('start') as Dayjs | null | undefined;
                    if (start && end && start.format(HM) >= end.format(HM)) throw new Error(LessonMsg.span);
                  },
                }),
              ]}
            >
              <TimePicker format={HM} minuteStep={15} needConfirm={false} style={{ width: 120 }} />
            </Form.Item>
          </Space>
        )}
        <Form.Item label="原因" name="reason">
          <Input maxLength={200} placeholder="如：请假、外出培训" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
