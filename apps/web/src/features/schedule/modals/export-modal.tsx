import { Msg } from '@studio/contract';
import { App, DatePicker, Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import dayjs from '../../../shared/dayjs.ts';
import { useStoreClock } from '../../../shared/store-time.ts';
import { useWrite } from '../../../shared/use-write.ts';
import { bookingsBetween } from '../hooks/batch.ts';
import type { ToolModalProps } from '../types.ts';

/**
 * Export the bookings of a date range to .xlsx. The range starts as the dates the calendar shows
 * (the week in view), or this week of the store's calendar before it has shown any.
 */
export default function ExportModal({ onClose, shown }: ToolModalProps) {
  const { message } = App.useApp();
  const clock = useStoreClock();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() => {
    if (shown) return [dayjs(shown.fromDate), dayjs(shown.toDate)];
    const monday = clock.day().startOf('isoWeek');
    return [monday, monday.add(6, 'day')];
  });
  const [error, setError] = useState<string | null>(null);
  const exporting = useWrite(
    async (from: string, to: string) => {
      const rows = await bookingsBetween(from, to);
      const { downloadXlsx, rangeFileName } = await import('../lib/export-xlsx.ts');
      await downloadXlsx(rows, rangeFileName(from, to));
    },
    { success: Msg.ok },
  );
  const onOk = async () => {
    const [a, b] = range ?? [];
    if (!a || !b) {
      setError(Msg.submitChooseDates);
      void message.error(Msg.submitChooseDates);
      return;
    }
    if (await exporting.run(a.format('YYYY-MM-DD'), b.format('YYYY-MM-DD'))) onClose();
  };
  return (
    <Modal
      open
      title="导出预约"
      okText="导出"
      cancelText="取消"
      confirmLoading={exporting.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label="上课日期" required validateStatus={error ? 'error' : undefined} help={error}>
          <DatePicker.RangePicker
            style={{ width: '100%' }}
            value={range}
            data-testid="export-range"
            onChange={(v) => {
              setRange(v);
              setError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
