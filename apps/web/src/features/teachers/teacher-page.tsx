import { RefMsg, type zTeacher } from '@studio/contract';
import { Form, Input, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { FormModal } from '../../shared/form-modal.tsx';
import { useTeachers } from '../../shared/reference.ts';
import { ListCard } from '../../shared/list-card.tsx';
import { useNavigate } from '../../shared/router.tsx';
import { CalendarFeedModal } from './calendar-feed-modal.tsx';
import { useDeleteTeacher, useSaveTeacher } from './hooks.ts';

type Teacher = z.infer<typeof zTeacher>;

/**
 * Fixed online room kinds a teacher can hold (spec section 3, online tool types 1-3), named by the
 * meeting software the studio uses for it.
 */
const MEETING_TYPES = [
  { value: 1, label: '腾讯会议（固定会议室）' },
  { value: 2, label: 'Zoom（固定会议室）' },
  { value: 3, label: '其他会议软件（固定会议室）' },
];

interface Values {
  name: string;
  mobile?: string;
  meetingType?: number | null;
  meetingCode?: string;
  joinUrl?: string;
}

/** /teacher/list: the teachers with their fixed online room. */
export default function TeacherPage() {
  const q = useTeachers();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Teacher | 'new' | null>(null);
  const [feedOf, setFeedOf] = useState<Teacher | null>(null);
  const del = useDeleteTeacher();
  const navigate = useNavigate();
  const rows = (q.data ?? []).filter((t) => !search || t.name.includes(search) || (t.mobile ?? '').includes(search));

  return (
    <ListCard
      title="老师"
      addLabel="添加老师"
      onAdd={() => setEditing('new')}
      search={{ placeholder: '姓名或手机号', onSearch: setSearch }}
    >
      <Table<Teacher>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 位` }}
        columns={[
          { title: '姓名', dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name, 'zh') },
          { title: '手机号', dataIndex: 'mobile', render: (v) => v || '-' },
          {
            title: '在线教室',
            dataIndex: 'meetingType',
            render: (v: number | null) => MEETING_TYPES.find((m) => m.value === v)?.label ?? '未设置',
          },
          { title: '会议号', dataIndex: 'meetingCode', render: (v) => v || '-' },
          {
            title: '入会链接',
            dataIndex: 'joinUrl',
            ellipsis: true,
            render: (v: string | null) =>
              v ? (
                <Typography.Link href={v} target="_blank">
                  {v}
                </Typography.Link>
              ) : (
                '-'
              ),
          },
          {
            title: '操作',
            width: 260,
            render: (_, t) => (
              <Space style={{ whiteSpace: 'nowrap' }}>
                <a onClick={() => setEditing(t)}>编辑</a>
                <a onClick={() => setFeedOf(t)}>日历订阅</a>
                <a onClick={() => navigate(`/teacher/hours?teacher_id=${t.id}`)}>工作时间</a>
                <DeleteLink title={`确定删除老师 ${t.name} 吗？`} onConfirm={() => del.run(t.id)} />
              </Space>
            ),
          },
        ]}
      />
      {editing && <TeacherModal teacher={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {feedOf && <CalendarFeedModal teacher={feedOf} onClose={() => setFeedOf(null)} />}
    </ListCard>
  );
}

function TeacherModal({ teacher, onClose }: { teacher: Teacher | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveTeacher(teacher?.id ?? null);
  const submit = (v: Values) =>
    save.run({
      name: v.name,
      mobile: v.mobile?.trim() || null,
      meetingType: v.meetingType ?? null,
      meetingCode: v.meetingCode?.trim() || null,
      joinUrl: v.joinUrl?.trim() || null,
    });
  return (
    <FormModal
      title={teacher ? '编辑老师' : '添加老师'}
      form={form}
      loading={save.loading}
      submit={submit}
      onCancel={onClose}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          teacher
            ? {
                name: teacher.name,
                mobile: teacher.mobile ?? undefined,
                meetingType: teacher.meetingType,
                meetingCode: teacher.meetingCode ?? undefined,
                joinUrl: teacher.joinUrl ?? undefined,
              }
            : {}
        }
      >
        <Form.Item label="姓名" name="name" rules={[{ required: true, whitespace: true, message: RefMsg.teacherName }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item label="手机号" name="mobile" rules={[{ pattern: /^1\d{10}$/, message: '请输入正确的11位手机号' }]}>
          <Input placeholder="选填" />
        </Form.Item>
        <Form.Item label="在线教室类型" name="meetingType">
          <Select allowClear placeholder="不设置" options={MEETING_TYPES} />
        </Form.Item>
        <Form.Item label="会议号" name="meetingCode">
          <Input maxLength={100} placeholder="固定会议室的会议号" />
        </Form.Item>
        <Form.Item label="入会链接" name="joinUrl" rules={[{ pattern: /^https?:\/\/\S+$/, message: RefMsg.joinUrl }]}>
          <Input placeholder="https://..." />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
