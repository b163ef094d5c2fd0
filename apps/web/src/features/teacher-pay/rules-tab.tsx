import { PlusOutlined } from '@ant-design/icons';
import { Button, Space, Table, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { TeacherSelect } from '../../shared/pickers/teacher-select.tsx';
import { useDeleteRule, usePayRules } from './hooks.ts';
import type { PayRule } from './types.ts';

const RuleFormModal = lazy(() => import('./rule-form-modal.tsx'));

type Open = { rule: PayRule | null } | null;

/** 课时费规则 (店长): every teacher's rules, for all courses, all 私教/小班 or one, each from its start date. */
export default function RulesTab() {
  const [teacherId, setTeacherId] = useState<number | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const q = usePayRules(true);
  const remove = useDeleteRule();
  const rows = (q.data ?? []).filter((r) => !teacherId || r.teacherId === teacherId);
  return (
    <div data-testid="pay-rules">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <TeacherSelect
          allowClear
          placeholder="全部老师"
          style={{ width: 180 }}
          value={teacherId ?? undefined}
          onChange={(v) => setTeacherId((v as number | undefined) ?? null)}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen({ rule: null })}>
          新增规则
        </Button>
      </Space>
      <Table<PayRule>
        size="middle"
        rowKey="id"
        loading={q.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (n) => `共 ${n} 条规则` }}
        locale={{ emptyText: '还没有课时费规则：点“新增规则”为老师设置' }}
        columns={[
          { title: '老师', dataIndex: 'teacherName', width: 120 },
          {
            title: '适用课程',
            dataIndex: 'scope',
            width: 200,
            render: (v: string, r) =>
              r.courseId || r.lessons ? <Tag color={r.lessons || r.level ? 'cyan' : 'purple'}>{v}</Tag> : v,
          },
          { title: '生效日期', dataIndex: 'fromDate', width: 120 },
          { title: '计费', dataIndex: 'summary' },
          {
            title: '操作',
            width: 120,
            render: (_, r) => (
              <Space>
                <a onClick={() => setOpen({ rule: r })}>修改</a>
                <DeleteLink
                  title="删除这条规则？"
                  onConfirm={() =>
                    remove.run({
                      teacherId: r.teacherId,
                      courseId: r.courseId,
                      lessons: r.lessons,
                      level: r.level,
                      fromDate: r.fromDate,
                    })
                  }
                />
              </Space>
            ),
          },
        ]}
      />
      <Suspense fallback={null}>
        {open && <RuleFormModal rule={open.rule} teacherId={teacherId} onClose={() => setOpen(null)} />}
      </Suspense>
    </div>
  );
}
