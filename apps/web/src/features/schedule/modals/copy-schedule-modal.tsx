import { COPY_MAX_DAYS, Msg } from '@studio/contract';
import { Checkbox, DatePicker, Form, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { VenueSelect } from '../../../shared/pickers/venue-select.tsx';
import { useStoreClock } from '../../../shared/store-time.ts';
import { useCopySchedule } from '../hooks/batch.ts';
import { aheadPresets, copyPresets, rangeDays, type Preset } from '../lib/ranges.ts';
import type { ToolModalProps } from '../types.ts';

type Range = [Dayjs | null, Dayjs | null] | null;

function rangeError(r: Range): string | null {
  if (!r || !r[0] || !r[1]) return Msg.chooseDates;
  return rangeDays(r[0], r[1]) > COPY_MAX_DAYS ? Msg.copyMax7 : null;
}

/** Copy the sessions of one period (at most 7 days) to another of the same length. */
export default function CopyScheduleModal({ onClose }: ToolModalProps) {
  const [former, setFormer] = useState<Range>(null);
  const [after, setAfter] = useState<Range>(null);
  const [errors, setErrors] = useState<{ former?: string | null; after?: string | null }>({});
  const [copyPending, setCopyPending] = useState(false);
  const [venueId, setVenueId] = useState<number | null>(null);
  const copy = useCopySchedule();
  // The week shortcuts are made when the modal opens (it mounts on opening), not at page load.
  // The weeks are the store's (its clock, not the browser's).
  const clock = useStoreClock();
  const [formerPresets] = useState(() => copyPresets(clock.day()));
  const [afterPresets] = useState(() => aheadPresets(clock.day()));

  const onPick = (which: 'former' | 'after', r: Range) => {
    (which === 'former' ? setFormer : setAfter)(r);
    setErrors((e) => ({ ...e, [which]: r && r[0] && r[1] ? rangeError(r) : null }));
  };

  const onOk = async () => {
    const e = { former: rangeError(former), after: rangeError(after) };
    if (!e.former && !e.after && rangeDays(former![0]!, former![1]!) !== rangeDays(after![0]!, after![1]!)) {
      e.after = Msg.copyDaysDiffer;
    }
    setErrors(e);
    if (e.former || e.after) return;
    const copied = await copy.run({
      from: [former![0]!.format('YYYY-MM-DD'), former![1]!.format('YYYY-MM-DD')],
      to: [after![0]!.format('YYYY-MM-DD'), after![1]!.format('YYYY-MM-DD')],
      withPendings: copyPending,
      venueId,
    });
    if (copied) onClose();
  };

  return (
    <Modal
      open
      title="复制课表"
      okText="复制"
      cancelText="取消"
      confirmLoading={copy.loading}
      onOk={onOk}
      onCancel={onClose}
      width={560}
    >
      <Typography.Paragraph type="secondary">
        把一个时间段（最多7天）的课程复制到另一个同样天数的时间段。
      </Typography.Paragraph>
      <Form layout="vertical">
        <RangeItem
          label="复制哪段时间的课程"
          testId="copy-former"
          presets={formerPresets}
          value={former}
          error={errors.former}
          onChange={(r) => onPick('former', r)}
        />
        <RangeItem
          label="复制到哪段时间"
          testId="copy-after"
          presets={afterPresets}
          value={after}
          error={errors.after}
          onChange={(r) => onPick('after', r)}
        />
        <Form.Item label="场地">
          <VenueSelect value={venueId} onChange={setVenueId} placeholder="不选表示全部场地" />
        </Form.Item>
        <Checkbox checked={copyPending} onChange={(e) => setCopyPending(e.target.checked)}>
          同时复制预约（待签到）
        </Checkbox>
      </Form>
    </Modal>
  );
}

/** One of the two periods: a range picker with its shortcuts and its message. */
function RangeItem(p: {
  label: string;
  testId: string;
  presets: Preset[];
  value: Range;
  error?: string | null;
  onChange: (r: Range) => void;
}) {
  return (
    <Form.Item label={p.label} required validateStatus={p.error ? 'error' : undefined} help={p.error}>
      <div data-testid={p.testId}>
        <DatePicker.RangePicker style={{ width: '100%' }} presets={p.presets} value={p.value} onChange={p.onChange} />
      </div>
    </Form.Item>
  );
}
