import { BATCH_DELETE_MAX_DAYS, Msg } from '@studio/contract';
import { Alert, App, DatePicker, Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { VenueSelect } from '../../../shared/pickers/venue-select.tsx';
import { useBatchDelete } from '../hooks/batch.ts';
import type { ToolModalProps } from '../types.ts';

interface Values {
  range?: [Dayjs | null, Dayjs | null] | null;
  venueId?: number | null;
}

/** Delete every session of a date range (and venue), with refunds. */
export default function BatchDeleteModal({ onClose }: ToolModalProps) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const del = useBatchDelete();
  const onOk = async () => {
    const v = form.getFieldsValue();
    const [a, b] = v.range ?? [];
    if (!a || !b) {
      void message.error(Msg.chooseDates);
      form.setFields([{ name: 'range', errors: [Msg.chooseDates] }]);
      return;
    }
    // The server's cap too (one call deletes at most a quarter): said here before anything is sent.
    if (b.diff(a, 'day') + 1 > BATCH_DELETE_MAX_DAYS) {
      void message.error(Msg.batchDeleteRangeMax);
      form.setFields([{ name: 'range', errors: [Msg.batchDeleteRangeMax] }]);
      return;
    }
    if (await del.run(a.format('YYYY-MM-DD'), b.format('YYYY-MM-DD'), v.venueId ?? null)) onClose();
  };
  return (
    <Modal
      open
      title="批量删除课程"
      okText="确认删除"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={del.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Alert type="warning" showIcon message={Msg.deleteSessionWarning} style={{ marginBottom: 16 }} />
      <Form<Values>
        form={form}
        layout="vertical"
        onValuesChange={(changed: Values) => {
          if ('range' in changed) form.setFields([{ name: 'range', errors: [] }]);
        }}
      >
        <Form.Item label="日期范围" name="range" required>
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="场地" name="venueId">
          <VenueSelect placeholder="不选表示全部场地（含各场地下的教室）" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
