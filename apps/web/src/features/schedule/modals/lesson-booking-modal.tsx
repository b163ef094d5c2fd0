import { LESSON_KIND_LABEL, LessonBookingMsg, Msg } from '@studio/contract';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Switch,
  TimePicker,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import dayjs from '../../../shared/dayjs.ts';
import { CardPicker } from '../../../shared/pickers/card-picker.tsx';
import { MemberPicker } from '../../../shared/pickers/member-picker.tsx';
import { useBookLesson, useFreeSlots, useLessonTypes } from '../hooks/lessons.ts';
import type { ToolModalProps } from '../types.ts';
import { LessonRoomSelect } from '../components/lesson-room-select.tsx';

interface Values {
  courseId?: number;
  teacherId?: number;
  date?: Dayjs;
  /** An offered start (`HH:mm`). */
  slot?: string;
  outside: boolean;
  /** Outside the offered starts: any time, with a reason. */
  time?: Dayjs;
  reason?: string;
  /** A room of the type's (when it needs one); null: the first free. */
  venueId?: number | null;
  members: { mid?: number; mcId?: number }[];
}

/**
 * 约私教: the desk books a lesson for its members: type → teacher → day → one of the start times
 * the finder offers (or, switched, any time with a reason) → a room when the type needs one (自动:
 * the first free) → each member with the card that pays.
 */
export default function LessonBookingModal({ onClose, prefill }: ToolModalProps) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const types = useLessonTypes();
  const courseId = Form.useWatch('courseId', form);
  const teacherId = Form.useWatch('teacherId', form);
  const date = Form.useWatch('date', form);
  const outside = Form.useWatch('outside', form) ?? false;
  const rows = Form.useWatch('members', form) ?? [];
  const type = types.data?.find((t) => t.id === courseId);
  // The card picker follows its member at once (the form's watch reports a change a task later).
  const [memberIds, setMemberIds] = useState<(number | undefined)[]>([]);
  const slots = useFreeSlots({
    courseId,
    teacherId,
    date: date?.format('YYYY-MM-DD'),
    members: Math.max(1, rows.length),
  });
  const book = useBookLesson();
  // The type's teachers; before a type is chosen, every type's (a teacher handed by the teacher view shows by name).
  const teacherOptions = [
    ...new Map((type ? [type] : (types.data ?? [])).flatMap((t) => t.teachers).map((t) => [t.teacherId, t.name])),
  ].map(([value, label]) => ({ value, label }));

  const onType = (id: number) => {
    const t = types.data?.find((x) => x.id === id);
    const keep = t?.teachers.some((x) => x.teacherId === form.getFieldValue('teacherId'));
    const n = t?.kind === 'one_on_two' ? 2 : 1;
    form.setFieldsValue({
      teacherId: keep ? form.getFieldValue('teacherId') : undefined,
      slot: undefined,
      venueId: null,
      members: Array.from({ length: n }, (_, i) => form.getFieldValue(['members', i]) ?? {}),
    });
  };

  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const done = await book.run({
      courseId: v.courseId!,
      teacherId: v.teacherId!,
      date: v.date!.format('YYYY-MM-DD'),
      time: v.outside ? v.time!.format('HH:mm') : v.slot!,
      members: v.members.map((m) => ({ mid: m.mid!, mcId: m.mcId! })),
      outsideReason: v.outside ? v.reason!.trim() : null,
      venueId: type?.areas.length ? (v.venueId ?? null) : null,
    });
    if (!done) return;
    void message.success(done.data.status === 'pending' ? '已预约，等待老师确认' : '已预约');
    onClose();
  };

  const offered = slots.data ?? [];
  return (
    <Modal
      open
      title="约私教"
      okText="确认预约"
      cancelText="取消"
      confirmLoading={book.loading}
      onOk={onOk}
      onCancel={onClose}
      destroyOnHidden
      width={600}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          teacherId: prefill?.teacherId,
          date: dayjs(prefill?.date),
          outside: false,
          venueId: null,
          members: [{}],
        }}
      >
        <Form.Item label="私教/小班课程" name="courseId" rules={[{ required: true, message: '请选择课程' }]}>
          <Select
            loading={types.isLoading}
            placeholder="选择课程"
            onChange={onType}
            options={(types.data ?? []).map((t) => ({
              value: t.id,
              label: `${t.name}（${LESSON_KIND_LABEL[t.kind]} · ${t.duration}分钟）`,
            }))}
            notFoundContent="还没有私教/小班课程，请先在课程管理中添加"
          />
        </Form.Item>
        <Space.Compact block style={{ gap: 12 }}>
          <Form.Item
            style={{ flex: 1 }}
            label="老师"
            name="teacherId"
            rules={[{ required: true, message: '请选择老师' }]}
          >
            <Select
              placeholder={type ? '选择老师' : '请先选择课程'}
              disabled={!type}
              onChange={() => form.setFieldValue('slot', undefined)}
              options={teacherOptions}
            />
          </Form.Item>
          <Form.Item style={{ flex: 1 }} label="日期" name="date" rules={[{ required: true, message: '请选择日期' }]}>
            <DatePicker
              style={{ width: '100%' }}
              allowClear={false}
              onChange={() => form.setFieldValue('slot', undefined)}
            />
          </Form.Item>
        </Space.Compact>
        <Form.Item label="在可约时段外预约" name="outside" valuePropName="checked">
          <Switch checkedChildren="是" unCheckedChildren="否" />
        </Form.Item>
        {!outside ? (
          <Form.Item
            label="可约时间"
            name="slot"
            rules={[{ required: true, message: '请选择时间' }]}
            extra={
              type && teacherId && date && !slots.isFetching && !offered.length
                ? '该老师当天没有可约时间，可换一天或在可约时段外预约'
                : undefined
            }
          >
            {type && teacherId && date ? (
              <Radio.Group
                optionType="button"
                aria-label="可约时间"
                options={offered.map((s) => ({ value: s.startTime.slice(11, 16), label: s.startTime.slice(11, 16) }))}
              />
            ) : (
              <Typography.Text type="secondary">选择课程、老师和日期后显示可约时间</Typography.Text>
            )}
          </Form.Item>
        ) : (
          <>
            <Alert
              style={{ marginBottom: 12 }}
              type="warning"
              showIcon
              message="在可约时段外预约：老师、场地仍不能冲突，原因会记录在课程上"
            />
            <Form.Item label="上课时间" name="time" rules={[{ required: true, message: '请选择时间' }]}>
              <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item
              label="原因"
              name="reason"
              rules={[{ required: true, whitespace: true, message: '请填写在可约时段外预约的原因' }]}
            >
              <Input.TextArea rows={2} maxLength={200} showCount />
            </Form.Item>
          </>
        )}
        {!!type?.areas.length && (
          <Form.Item label="场地" name="venueId" htmlFor="lesson-room">
            <LessonRoomSelect id="lesson-room" rooms={type.areas} auto="第一个空闲的场地" />
          </Form.Item>
        )}
        <Form.List name="members">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, i) => (
                <Space.Compact block key={field.key} style={{ gap: 12, alignItems: 'flex-start' }}>
                  <Form.Item
                    style={{ flex: 1 }}
                    label={`会员${fields.length > 1 ? i + 1 : ''}`}
                    name={[field.name, 'mid']}
                    rules={[
                      { required: true, message: Msg.chooseMember },
                      {
                        validator: (_, v) =>
                          v && rows.filter((r) => r?.mid === v).length > 1
                            ? Promise.reject(new Error(LessonBookingMsg.sameMember))
                            : Promise.resolve(),
                      },
                    ]}
                  >
                    <MemberPicker
                      onChange={(id) => {
                        setMemberIds((old) => Object.assign([...old], { [i]: id }));
                        form.setFieldValue(['members', field.name], { mid: id, mcId: undefined });
                      }}
                    />
                  </Form.Item>
                  <Form.Item
                    style={{ flex: 1 }}
                    label="会员卡"
                    name={[field.name, 'mcId']}
                    rules={[{ required: true, message: '请选择会员卡' }]}
                  >
                    <CardPicker memberId={memberIds[i]} courseId={courseId} />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button
                      style={{ marginTop: 30 }}
                      onClick={() => {
                        setMemberIds((old) => old.filter((_, j) => j !== i));
                        remove(field.name);
                      }}
                    >
                      移除
                    </Button>
                  )}
                </Space.Compact>
              ))}
              {type && fields.length < type.maxMembers && (
                <Button type="dashed" block onClick={() => add({})} style={{ marginBottom: 12 }}>
                  添加会员（最多{type.maxMembers}位）
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
