import { LESSON_KIND_LABEL, WEEKDAY_NAMES, type LessonSeriesDate } from '@studio/contract';
import { Alert, App, Button, DatePicker, Form, InputNumber, Modal, Select, Table, Tag, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { CardPicker } from '../../../shared/pickers/card-picker.tsx';
import { MemberPicker } from '../../../shared/pickers/member-picker.tsx';
import {
  seriesRequest,
  useBookSeries,
  useLessonTypes,
  useSeriesPreview,
  type SeriesFields,
} from '../hooks/lesson-series.ts';
import type { ToolModalProps } from '../types.ts';
import { LessonRoomSelect } from '../components/lesson-room-select.tsx';

/** 0 = Sunday of a `YYYY-MM-DD` date. */
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/**
 * 固定时段: a lesson every week at the same time with the same teacher, for some weeks — its members
 * each with the card that pays (1对2: two members, two cards or one shared card; 小班: up to its
 * most), in a room of the type's when it needs one (none chosen: the first free each week).
 * 预览 lists each date, bookable or why not (nothing is booked); 预约 books the bookable ones at once,
 * a bulk change undone from 操作日志.
 */
export default function LessonSeriesModal({ onClose }: ToolModalProps) {
  const { message } = App.useApp();
  const types = useLessonTypes();
  const [f, setF] = useState<SeriesFields>({ weeks: 4, members: [{}] });
  const [dates, setDates] = useState<LessonSeriesDate[] | null>(null);
  const preview = useSeriesPreview();
  const book = useBookSeries();
  /** Any change after a preview asks for a new one. */
  const set = (patch: Partial<SeriesFields>) => {
    setF((old) => ({ ...old, ...patch }));
    setDates(null);
  };
  const type = types.data?.find((t) => t.id === f.courseId);
  const setMember = (i: number, m: SeriesFields['members'][number]) =>
    set({ members: f.members.map((old, j) => (j === i ? m : old)) });
  /** A type chosen: its teachers and rooms anew, a 1对2 asks for two members (the first one kept). */
  const onType = (id: number) => {
    const t = types.data?.find((x) => x.id === id);
    const n = t?.kind === 'one_on_two' ? 2 : 1;
    const members = Array.from({ length: n }, (_, i) => (i === 0 ? { memberId: f.members[0]?.memberId } : {}));
    set({ courseId: id, teacherId: undefined, venueId: null, members });
  };
  const bookable = dates?.filter((d) => d.reason === null).length ?? 0;

  const request = () => {
    const r = seriesRequest(f);
    if (r.problem) void message.error(r.problem);
    return r.req;
  };
  const onPreview = async () => {
    const req = request();
    if (!req) return;
    const a = await preview.run(req);
    if (a) setDates(a.data.dates);
  };
  const onBook = async () => {
    const req = request();
    if (!req || !dates) return;
    const a = await book.run(req, dates);
    if (a) {
      void message.success(`已预约 ${a.data.count} 节课`);
      onClose();
    }
  };

  return (
    <Modal
      open
      title="固定时段私教"
      width={720}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="preview" loading={preview.loading} onClick={() => void onPreview()}>
          预览
        </Button>,
        <Button
          key="book"
          type="primary"
          disabled={!dates || bookable === 0}
          loading={book.loading}
          onClick={() => void onBook()}
        >
          {dates ? `预约 ${bookable} 节` : '预约'}
        </Button>,
      ]}
    >
      <Form layout="horizontal" labelCol={{ span: 4 }} wrapperCol={{ span: 19 }}>
        <Form.Item label="私教课程" required htmlFor="series-course">
          <Select
            id="series-course"
            placeholder="选择私教或小班课程"
            loading={types.isFetching}
            value={f.courseId}
            onChange={onType}
            options={(types.data ?? []).map((t) => ({
              value: t.id,
              label: `${t.name}（${LESSON_KIND_LABEL[t.kind]}）`,
            }))}
          />
        </Form.Item>
        <Form.Item label="老师" required htmlFor="series-teacher">
          <Select
            id="series-teacher"
            placeholder={f.courseId ? '选择老师' : '请先选择课程'}
            disabled={!type}
            value={f.teacherId}
            onChange={(v: number) => set({ teacherId: v })}
            options={(type?.teachers ?? []).map((t) => ({ value: t.teacherId, label: t.name }))}
          />
        </Form.Item>
        {!!type?.areas.length && (
          <Form.Item label="场地" htmlFor="series-room">
            <LessonRoomSelect
              id="series-room"
              rooms={type.areas}
              auto="每周第一个空闲的场地"
              value={f.venueId}
              onChange={(venueId) => set({ venueId })}
            />
          </Form.Item>
        )}
        {f.members.map((m, i) => {
          const n = f.members.length > 1 ? String(i + 1) : '';
          return (
            <div key={i} className="series-member">
              <Form.Item label={`会员${n}`} required htmlFor={`series-member-${i}`}>
                <MemberPicker
                  id={`series-member-${i}`}
                  value={m.memberId}
                  onChange={(id) => setMember(i, { memberId: id, cardId: undefined })}
                />
              </Form.Item>
              <Form.Item
                label={`会员卡${n}`}
                required
                htmlFor={`series-card-${i}`}
                extra={i > 0 ? '可选该会员自己的卡，或与其他会员共享的卡' : undefined}
              >
                <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                  <div style={{ flex: 1 }}>
                    <CardPicker
                      id={`series-card-${i}`}
                      memberId={m.memberId}
                      courseId={f.courseId}
                      value={m.cardId}
                      onChange={(id) => setMember(i, { ...m, cardId: id })}
                    />
                  </div>
                  {i > 0 && <Button onClick={() => set({ members: f.members.filter((_, j) => j !== i) })}>移除</Button>}
                </div>
              </Form.Item>
            </div>
          );
        })}
        {type && f.members.length < type.maxMembers && (
          <Form.Item wrapperCol={{ offset: 4, span: 19 }}>
            <Button type="dashed" block onClick={() => set({ members: [...f.members, {}] })}>
              添加会员（最多{type.maxMembers}位）
            </Button>
          </Form.Item>
        )}
        <Form.Item
          label="第一节"
          required
          htmlFor="series-date"
          extra={f.startDate ? `之后每周${WEEKDAY_NAMES[weekdayOf(f.startDate)]}同一时间` : undefined}
        >
          <DatePicker
            id="series-date"
            value={f.startDate ? dayjs(f.startDate) : null}
            onChange={(d: Dayjs | null) => set({ startDate: d?.format('YYYY-MM-DD') })}
            style={{ marginRight: 8 }}
          />
          <TimePicker
            aria-label="上课时间"
            format="HH:mm"
            minuteStep={15}
            placeholder="上课时间"
            value={f.time ? dayjs(`2000-01-01 ${f.time}`) : null}
            onChange={(d: Dayjs | null) => set({ time: d?.format('HH:mm') })}
          />
        </Form.Item>
        <Form.Item label="连续" required htmlFor="series-weeks">
          <InputNumber
            id="series-weeks"
            min={1}
            max={52}
            precision={0}
            value={f.weeks}
            onChange={(v) => set({ weeks: v })}
            addonAfter="周"
          />
        </Form.Item>
      </Form>
      {dates && (
        <div data-testid="series-preview">
          <Alert
            type={bookable === dates.length ? 'success' : 'warning'}
            showIcon
            style={{ marginBottom: 8 }}
            message={
              bookable === dates.length
                ? `${dates.length} 个日期都可以预约`
                : `可预约 ${bookable} 节，${dates.length - bookable} 个日期不能预约（预约时跳过）`
            }
          />
          <Table<LessonSeriesDate>
            size="small"
            rowKey="date"
            pagination={false}
            scroll={{ y: 260 }}
            dataSource={dates}
            columns={[
              {
                title: '日期',
                dataIndex: 'date',
                width: 150,
                render: (d: string) => `${d}（周${WEEKDAY_NAMES[weekdayOf(d)]}）`,
              },
              { title: '时间', dataIndex: 'time', width: 80 },
              {
                title: '能否预约',
                dataIndex: 'reason',
                render: (reason: string | null) =>
                  reason === null ? (
                    <Tag color="green">可预约</Tag>
                  ) : (
                    <span style={{ color: '#a8071a' }}>{reason}</span>
                  ),
              },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
