import type { Course } from '@studio/contract';
import { Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from '../../shared/router.tsx';
import { ListCard, usePagedSearch } from '../../shared/list-card.tsx';
import { courseAgeText, courseGenderText } from './course-text.ts';
import { useCoursePage, useSetCourseEnabled } from './hooks.ts';

/** /course/list: the store's courses with search and paging; the switch enables or disables one. */
export default function CourseListPage() {
  const navigate = useNavigate();
  const paging = usePagedSearch();
  const q = useCoursePage(paging.page, paging.pageSize, paging.search);
  const [switching, setSwitching] = useState<number | null>(null);
  const status = useSetCourseEnabled();
  const toggle = async (id: number, on: boolean) => {
    setSwitching(id);
    await status.run(id, on ? 1 : 0);
    setSwitching(null);
  };

  return (
    <ListCard
      title="课程"
      addLabel="添加课程"
      onAdd={() => navigate('/course/edit/0')}
      search={{ placeholder: '课程名称', onSearch: paging.setSearch }}
    >
      <Table<Course>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        scroll={{ x: 1000 }}
        pagination={paging.pagination(q.data?.total ?? 0, '门课程')}
        columns={[
          {
            title: '课程名称',
            dataIndex: 'name',
            width: 180,
            sorter: (a, b) => a.name.localeCompare(b.name, 'zh'),
            render: (v: string, c) => (
              <Space>
                <span
                  style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: c.color }}
                />
                {v}
                {c.forChildren && <Tag>少儿</Tag>}
              </Space>
            ),
          },
          { title: '默认人数', dataIndex: 'count', width: 100, sorter: (a, b) => a.count - b.count },
          {
            title: '时长',
            dataIndex: 'duration',
            width: 90,
            sorter: (a, b) => a.duration - b.duration,
            render: (v: number) => `${v} 分钟`,
          },
          {
            title: '可用卡种',
            dataIndex: 'cards',
            render: (cards: Course['cards']) =>
              cards.length ? cards.map((c) => <Tag key={c.id}>{c.name}</Tag>) : <Tag color="warning">未设置</Tag>,
          },
          { title: '性别限制', width: 90, render: (_, c) => courseGenderText(c) },
          { title: '年龄限制', width: 200, ellipsis: true, render: (_, c) => courseAgeText(c) },
          {
            title: '启用',
            dataIndex: 'enabled',
            width: 80,
            render: (v: number, c) => (
              <Switch
                size="small"
                aria-label={`启用${c.name}`}
                checked={v === 1}
                loading={switching === c.id}
                onChange={(on) => void toggle(c.id, on)}
              />
            ),
          },
          {
            title: '操作',
            width: 80,
            fixed: 'right',
            render: (_, c) => <a onClick={() => navigate(`/course/edit/${c.id}`)}>编辑</a>,
          },
        ]}
      />
    </ListCard>
  );
}
