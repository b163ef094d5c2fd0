import { DatePicker, Form, InputNumber, TimePicker, type InputNumberProps } from 'antd';
import type { Rule } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import { MaterialSelect } from '../../../shared/pickers/material-select.tsx';
import { TeacherSelect } from '../../../shared/pickers/teacher-select.tsx';
import { VenueSelect } from '../../../shared/pickers/venue-select.tsx';
import type { SessionFields } from '../hooks/session.ts';

/** What the add and edit forms hold of a session. */
export interface SessionFormValues {
  teacherId?: number;
  date?: Dayjs;
  time?: Dayjs;
  capacity?: number;
  venueId?: number | null;
  materialId?: number | null;
}

/** The validated form values as the session writes take them. */
export function sessionFields(v: SessionFormValues): SessionFields {
  return {
    teacherId: v.teacherId!,
    date: v.date!.format('YYYY-MM-DD'),
    time: v.time!.format('HH:mm'),
    capacity: v.capacity!,
    venueId: v.venueId ?? null,
    materialId: v.materialId ?? null,
  };
}

interface Props {
  /** Each form words its messages as the spec does (adding says 请补全 for every empty field). */
  rules: { teacher: Rule[]; date: Rule[]; time: Rule[]; capacity: Rule[] };
  capacityInput: InputNumberProps;
}

/** Teacher, date, time, capacity, venue and material of a session. */
export function SessionFormItems({ rules, capacityInput }: Props) {
  return (
    <>
      <Form.Item label="上课老师" name="teacherId" rules={rules.teacher}>
        <TeacherSelect />
      </Form.Item>
      <Form.Item label="上课日期" name="date" rules={rules.date}>
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label="上课时间" name="time" rules={rules.time}>
        <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label="上课人数" name="capacity" rules={rules.capacity}>
        <InputNumber style={{ width: '100%' }} {...capacityInput} />
      </Form.Item>
      <Form.Item label="场地" name="venueId">
        <VenueSelect />
      </Form.Item>
      <Form.Item label="教材" name="materialId">
        <MaterialSelect />
      </Form.Item>
    </>
  );
}
