import { Space, Table } from 'antd';
import { useState } from 'react';
import { Link } from '../../shared/router.tsx';
import { ListCard, usePagedSearch } from '../../shared/list-card.tsx';
import { MobileText } from '../../shared/mobile-text.tsx';
import { useMemberPage } from './hooks.ts';
import MemberFormModal, { GENDERS, type Member } from './member-form-modal.tsx';

/** /member/list: members with search by name or mobile fragment, paging, create and edit. */
export default function MemberListPage() {
  const paging = usePagedSearch();
  const [editing, setEditing] = useState<Member | 'new' | null>(null);
  const q = useMemberPage(paging.page, paging.pageSize, paging.search);
  return (
    <ListCard
      title="会员"
      addLabel="添加会员"
      onAdd={() => setEditing('new')}
      search={{ placeholder: '姓名或手机号', onSearch: paging.setSearch }}
    >
      <Table<Member>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={paging.pagination(q.data?.total ?? 0, '位会员')}
        columns={[
          {
            title: '姓名',
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name, 'zh'),
            render: (v: string, m) => <Link to={`/member/detail?member_id=${m.id}`}>{v}</Link>,
          },
          { title: '手机号', dataIndex: 'mobile', render: (v: string, m) => <MobileText memberId={m.id} mobile={v} /> },
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
    </ListCard>
  );
}
