import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Msg, WEEKDAY_NAMES } from '@studio/contract';
import { App, Button, Col, Form, InputNumber, Modal, Row, Select, TimePicker, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../shared/dayjs.ts';
import { CardPicker } from '../../shared/pickers/card-picker.tsx';
import { MemberPicker } from '../../shared/pickers/member-picker.tsx';
import { CourseSelect, useCourseCapacity } from '../../shared/pickers/course-select.tsx';
import { MaterialSelect } from '../../shared/pickers/material-select.tsx';
import { TeacherSelect } from '../../shared/pickers/teacher-select.tsx';
import { VenueSelect } from '../../shared/pickers/venue-select.tsx';
import { useSaveTemplateRow, type TemplateRow } from './hooks.ts';

interface Student {
  memberId?: number;
  cardId?: number;
  studentCount?: number;
  initial?: { id: number; name: string; mobile: string };
}

interface Values {
  weekday: number;
  time: Dayjs;
  courseId: number;
  teacherId: number;
  venueId?: number | null;
  capacity: number;
  materialId?: number | null;
  students: Student[];
}

const WEEK_OPTIONS = [1, 2, 3, 4, 5, 6, 0].map((d) => ({ value: d, label: `周${WEEKDAY_NAMES[d]}` }));
const seatsOf = (list: Student[] | undefined) => (list ?? []).reduce((s, x) => s + (x?.studentCount ?? 0), 0);

/** Adds or edits a weekly template row with its fixed students (member + card + student count). */
export default function TemplateRowModal({
  row,
  weekday,
  onClose,
}: {
  row: TemplateRow | null;
  weekday: number;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const capacityOf = useCourseCapacity();
  const courseId = Form.useWatch('courseId', form);
  const students = Form.useWatch('students', form);
  const capacity = Form.useWatch('capacity', form);
  const save = useSaveTemplateRow(row?.id ?? null);

  const addStudent = (add: (v: Student) => void) => {
    if (!courseId) return void message.warning(Msg.courseFirstThenStudent);
    const list = form.getFieldValue('students') as Student[] | undefined;
    const i = (list ?? []).findIndex((s) => !s?.memberId || !s?.cardId);
    if (i >= 0) return void message.warning(Msg.completeStudent(i + 1));
    if (seatsOf(list) + 1 > (form.getFieldValue('capacity') ?? 0)) return void message.warning(Msg.studentsCap);
    add({ studentCount: 1 });
  };

  const onOk = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const i = (v.students ?? []).findIndex((s) => !s?.memberId || !s?.cardId);
    if (i >= 0) return void message.error(Msg.completeStudent(i + 1));
    if (seatsOf(v.students) > v.capacity) return void message.error(Msg.studentsCap);
    const saved = await save.run({
      weekday: v.weekday,
      time: v.time.format('HH:mm'),
      courseId: v.courseId,
      teacherId: v.teacherId,
      venueId: v.venueId ?? null,
      capacity: v.capacity,
      materialId: v.materialId ?? null,
      students: (v.students ?? []).map((s) => ({ cardId: s.cardId!, studentCount: s.studentCount ?? 1 })),
    });
    if (saved) onClose();
  };

  const initial: Partial<Values> = row
    ? {
        weekday: row.weekday,
        time: dayjs(`2000-01-01 ${row.time}`),
        courseId: row.courseId,
        teacherId: row.teacherId,
        venueId: row.areaId,
        capacity: row.reservableCount,
        materialId: row.bookId,
        students: row.students.map((s) => ({
          memberId: s.memberId,
          cardId: s.mcId,
          studentCount: s.studentCount,
          initial: { id: s.memberId, name: s.memberName, mobile: '' },
        })),
      }
    : { weekday, students: [] };

  return (
    <Modal
      open
      width={760}
      title={row ? '编辑固定课' : '添加固定课'}
      okText="保存"
      confirmLoading={save.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial}>
        <Row gutter={12}>
          <Col span={6}>
            <Form.Item label="星期" name="weekday" rules={[{ required: true, message: Msg.chooseWeekday }]}>
              <Select options={WEEK_OPTIONS} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item label="上课时间" name="time" rules={[{ required: true, message: Msg.chooseTime }]}>
              <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} needConfirm={false} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="课程" name="courseId" rules={[{ required: true, message: Msg.chooseCourse }]}>
              <CourseSelect
                onChange={(id: number) => {
                  const n = capacityOf(id);
                  if (n !== undefined) form.setFieldValue('capacity', n);
                  const list = (form.getFieldValue('students') as Student[] | undefined) ?? [];
                  form.setFieldValue(
                    'students',
                    list.map((s) => ({ ...s, cardId: undefined })),
                  );
                }}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="上课老师" name="teacherId" rules={[{ required: true, message: Msg.chooseTeacher }]}>
              <TeacherSelect />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="场地" name="venueId">
              <VenueSelect />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              label="上课人数"
              name="capacity"
              rules={[
                { required: true, message: Msg.fillAll },
                { type: 'integer', min: 0, message: Msg.countNotNegative },
              ]}
            >
              <InputNumber precision={0} style={{ width: '100%' }} suffix="人" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="教材" name="materialId">
              <MaterialSelect />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text strong>
          固定学员（{seatsOf(students)}/{capacity ?? 0}）
        </Typography.Text>
        <Form.List name="students">
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 8 }}>
              {fields.map((f, i) => (
                <StudentRow
                  key={f.key}
                  name={f.name}
                  index={i}
                  courseId={courseId}
                  student={students?.[f.name]}
                  onMember={() => form.setFieldValue(['students', f.name, 'cardId'], undefined)}
                  onRemove={() => remove(f.name)}
                />
              ))}
              <Button type="dashed" block icon={<PlusOutlined />} onClick={() => addStudent(add)}>
                添加固定学员
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function StudentRow(props: {
  name: number;
  index: number;
  courseId?: number;
  student?: Student;
  onMember: () => void;
  onRemove: () => void;
}) {
  const { name, index, courseId, student, onMember, onRemove } = props;
  return (
    <Row gutter={8} align="top" data-testid="fix-student-row">
      <Col span={1} style={{ paddingTop: 6 }}>
        {index + 1}
      </Col>
      <Col span={8}>
        <Form.Item name={[name, 'memberId']} rules={[{ required: true, message: Msg.chooseMember }]}>
          <MemberPicker initial={student?.initial} onChange={onMember} />
        </Form.Item>
      </Col>
      <Col span={9}>
        <Form.Item name={[name, 'cardId']} rules={[{ required: true, message: Msg.completeStudent(index + 1) }]}>
          <CardPicker memberId={student?.memberId} courseId={courseId} />
        </Form.Item>
      </Col>
      <Col span={4}>
        <Form.Item name={[name, 'studentCount']} rules={[{ required: true, message: Msg.studentCountMin1 }]}>
          <InputNumber
            min={1}
            precision={0}
            suffix="人"
            style={{ width: '100%' }}
            aria-label={`学员${index + 1}上课人数`}
          />
        </Form.Item>
      </Col>
      <Col span={2}>
        <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除学员" onClick={onRemove} />
      </Col>
    </Row>
  );
}
