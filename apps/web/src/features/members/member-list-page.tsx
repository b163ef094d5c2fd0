import { PlusOutlined } from '@ant-design/icons';
import { memberList } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Space, Table } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { call } from '../../api/client.ts';
import MemberFormModal, { GENDERS, type Member } from './member-form-modal.tsx';

/** /member/list: members with search by name or mobile fragment, paging, create and edit. */
export default function MemberListPage() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [param, setParam] = useState('');
  const [editing, setEditing] = useState<Member | 'new' | null>(null);
  const q = useQuery({
    queryKey: ['members', page, pageSize, param],
    queryFn: () => call(memberList, { page, pageSize, param: param || null }),
    placeholderData: (p) => p,
  });
  return (
    <Card
      title="会员"
      extra={
        <Space>
          <Input.Search
            allowClear
            placeholder="姓名或手机号"
            style={{ width: 220 }}
            onSearch={(v) => {
              setParam(v.trim());
              setPage(1);
            }}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            添加会员
          </Button>
        </Space>
      }
    >
      <Table<Member>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={{
          current: page,
          pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 位会员`,
          onChange: (p, s) => {
            setPage(p);
            setPageSize(s);
          },
        }}
        columns={[
          {
            title: '姓名',
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name, 'zh'),
            render: (v: string, m) => <Link to={`/member/detail?member_id=${m.id}`}>{v}</Link>,
          },
          { title: '手机号', dataIndex: 'mobile' },
          {
            title: '性别',
            dataIndex: 'gender',
            width: 80,
            render: (g: number) => GENDERS.find((x) => x.value === g)?.label ?? '未知',
          },
          {
            title: '出生日期',
            dataIndex: 'birthday',
            width: 130,
            sorter: (a, b) => (a.birthday ?? '').localeCompare(b.birthday ?? ''),
            render: (v) => v || '-',
          },
          {
            title: '操作',
            width: 200,
            render: (_, m) => (
              <Space>
                <a onClick={() => setEditing(m)}>编辑</a>
                <Link to={`/member/detail?member_id=${m.id}`}>详情</Link>
                <Link to={`/card/list?tab=member&member_id=${m.id}`}>会员卡</Link>
              </Space>
            ),
          },
        ]}
      />
      {editing && <MemberFormModal member={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
