import { ROLE_LABEL, type StaffRow } from '@studio/contract';
import { Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { ListCard } from '../../shared/list-card.tsx';
import { useProfile } from '../../shared/profile.ts';
import { useStaffList } from './hooks.ts';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import { StaffFormModal } from './staff-form-modal.tsx';
import './staff.css';

const ROLE_COLOR = { manager: 'gold', desk: 'blue', teacher: 'green' } as const;

type Open = { kind: 'new' } | { kind: 'edit'; staff: StaffRow } | { kind: 'password'; staff: StaffRow } | null;

/** /staff/list (店长): the store's staff, their roles and state; add, edit, enable or disable, reset a password. */
export default function StaffPage() {
  const q = useStaffList();
  // A manager's own password is changed in 修改密码 (with the old one), not reset here.
  const me = useProfile().data;
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Open>(null);
  const rows = (q.data ?? []).filter(
    (s) => !search || s.name.includes(search) || s.account.includes(search) || (s.mobile ?? '').includes(search),
  );
  return (
    <ListCard
      title="员工"
      addLabel="新增员工"
      onAdd={() => setOpen({ kind: 'new' })}
      search={{ placeholder: '姓名、账号或手机号', onSearch: setSearch }}
    >
      <Table<StaffRow>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        data-testid="staff-table"
        pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (n) => `共 ${n} 位员工` }}
        rowClassName={(s) => (s.enabled ? '' : 'staff-row-disabled')}
        columns={[
          { title: '姓名', dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name, 'zh') },
          { title: '账号', dataIndex: 'account' },
          { title: '手机号', dataIndex: 'mobile', render: (v: string | null) => v || '-' },
          {
            title: '角色',
            dataIndex: 'role',
            width: 90,
            filters: Object.entries(ROLE_LABEL).map(([value, text]) => ({ value, text })),
            onFilter: (v, s) => s.role === v,
            render: (r: StaffRow['role']) => <Tag color={ROLE_COLOR[r]}>{ROLE_LABEL[r]}</Tag>,
          },
          { title: '对应老师', dataIndex: 'teacherName', render: (v: string | null) => v || '-' },
          {
            title: '状态',
            dataIndex: 'enabled',
            width: 80,
            render: (v: 0 | 1) => (v ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            title: '操作',
            width: 150,
            render: (_, s) => (
              <Space>
                <a onClick={() => setOpen({ kind: 'edit', staff: s })}>编辑</a>
                {s.id !== me?.id && <a onClick={() => setOpen({ kind: 'password', staff: s })}>重置密码</a>}
              </Space>
            ),
          },
        ]}
      />
      {open?.kind === 'new' && <StaffFormModal staff={null} all={q.data ?? []} onClose={() => setOpen(null)} />}
      {open?.kind === 'edit' && <StaffFormModal staff={open.staff} all={q.data ?? []} onClose={() => setOpen(null)} />}
      {open?.kind === 'password' && <ResetPasswordModal staff={open.staff} onClose={() => setOpen(null)} />}
    </ListCard>
  );
}
