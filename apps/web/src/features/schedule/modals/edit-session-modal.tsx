import { Msg } from '@studio/contract';
import { App, Form } from 'antd';
import dayjs from '../../../shared/dayjs.ts';
import { FormModal } from '../../../shared/form-modal.tsx';
import { SessionFormItems, sessionFields, type SessionFormValues } from '../components/session-fields.tsx';
import { useUpdateSession } from '../hooks/session.ts';
import type { SessionInfo } from '../types.ts';

/** Edit a session's teacher, date, time, capacity, venue and material. */
export default function EditSessionModal({ session, onClose }: { session: SessionInfo; onClose: () => void }) {
  const [form] = Form.useForm<SessionFormValues>();
  const { message } = App.useApp();
  const save = useUpdateSession(session.id);
  const start = dayjs(session.startTime);
  return (
    <FormModal
      title="编辑课程"
      cancelText="取消"
      destroyOnHidden
      form={form}
      loading={save.loading}
      submit={(v) => save.run(sessionFields(v))}
      onInvalid={() => void message.error(Msg.submitFailed)}
      onCancel={onClose}
    >
      <Form<SessionFormValues>
        form={form}
        layout="vertical"
        initialValues={{
          teacherId: session.teacherId,
          date: start,
          time: start,
          capacity: session.reservableCount,
          venueId: session.areaId,
          materialId: session.bookId,
        }}
      >
        <SessionFormItems
          rules={{
            teacher: [{ required: true, type: 'number', min: 1, message: Msg.chooseTeacher }],
            date: [{ required: true, message: Msg.chooseDate }],
            time: [{ required: true, message: Msg.chooseTime }],
            capacity: [{ required: true, type: 'number', min: 0, message: Msg.countNotNegative }],
          }}
          capacityInput={{ precision: 0 }}
        />
      </Form>
    </FormModal>
  );
}
