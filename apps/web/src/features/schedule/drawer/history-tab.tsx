import { HISTORY_PAGE_SIZE } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import { useState } from 'react';
import { call } from '../../../api/client.ts';
import { historyList, type HistoryRow } from '../lib/calls.ts';
import { OPERATE_TYPES } from '../lib/format.ts';

/** Every book and cancel of the session, 10 a page. */
export function HistoryTab({ tid }: { tid: number }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['session', tid, 'history', page],
    queryFn: () => call(historyList, { tid, page }),
    placeholderData: (p) => p,
  });
  return (
    <Table<HistoryRow>
      data-testid="history-table"
      size="small"
      rowKey="id"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: '暂无预约记录' }}
      pagination={{
        current: page,
        pageSize: HISTORY_PAGE_SIZE,
        total: q.data?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
        hideOnSinglePage: true,
      }}
      columns={[
        { title: '会员', dataIndex: 'memberName' },
        { title: '手机号', dataIndex: 'memberMobile' },
        { title: '会员卡', dataIndex: 'cardName', ellipsis: true },
        { title: '人数', dataIndex: 'studentCount', width: 56 },
        { title: '操作类型', dataIndex: 'operateType', render: (v: number) => OPERATE_TYPES[v] ?? '-' },
        { title: '操作人', dataIndex: 'operator' },
        { title: '时间', dataIndex: 'createTime', width: 100, render: (v: string) => v.slice(5, 16) },
      ]}
    />
  );
}
