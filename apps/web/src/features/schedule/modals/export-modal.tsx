import { batchExportReservation, Msg } from '@studio/contract';
import { App, DatePicker, Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { call } from '../../../api/client.ts';
import type { ToolModalProps } from '../schedule-page.tsx';

/** Export the reservations of a date range to .xlsx. */
export default function ExportModal({ onClose }: ToolModalProps) {
  const { message } = App.useApp();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const onOk = async () => {
    const [a, b] = range ?? [];
    if (!a || !b) {
      setError(Msg.submitChooseDates);
      void message.error(Msg.submitChooseDates);
      return;
    }
    if (loading) return;
    setLoading(true);
    try {
      const from = a.format('YYYY-MM-DD');
      const to = b.format('YYYY-MM-DD');
      const rows = await call(batchExportReservation, { fromDate: from, toDate: to });
      const { downloadXlsx, rangeFileName } = await import('../lib/export-xlsx.ts');
      await downloadXlsx(rows, rangeFileName(from, to));
      void message.success(Msg.ok);
      onClose();
    } catch {
      // the helper has shown the server's message
    } finally {
      setLoading(false);
    }
  };
  return (
    <Modal
      open
      title="导出预约"
      okText="导出"
      cancelText="取消"
      confirmLoading={loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label="上课日期" required validateStatus={error ? 'error' : undefined} help={error}>
          <DatePicker.RangePicker
            style={{ width: '100%' }}
            value={range}
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
