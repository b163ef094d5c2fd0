import { HISTORY_PAGE_SIZE } from '@studio/contract';
import { Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { OPERATE_TYPES } from '../../../shared/format.ts';
import { useSessionHistory } from '../hooks/session.ts';
import type { HistoryRow } from '../types.ts';
import { drawerPaging } from './paging.ts';

/** Every book and cancel of the session, 10 a page. */
export function HistoryTab({ sessionId }: { sessionId: number }) {
  const [page, setPage] = useState(1);
  const q = useSessionHistory(sessionId, page);
  return (
    <Table<HistoryRow>
      data-testid="history-table"
      size="small"
      rowKey="id"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: '暂无预约记录' }}
      pagination={drawerPaging(page, HISTORY_PAGE_SIZE, q.data?.total, setPage)}
      columns={[
        { title: '会员', dataIndex: 'memberName' },
        { title: '手机号', dataIndex: 'memberMobile' },
        { title: '会员卡', dataIndex: 'cardName', ellipsis: true },
        { title: '人数', dataIndex: 'studentCount', width: 56 },
        {
          title: '操作类型',
          dataIndex: 'operateType',
          render: (v: number, r) => (
            <>
              {OPERATE_TYPES[v] ?? '-'}
              {r.override && (
                <Tooltip title={r.override}>
                  <Tag color="gold" style={{ marginLeft: 4 }}>
                    越过规则
                  </Tag>
                </Tooltip>
              )}
            </>
          ),
        },
        { title: '操作人', dataIndex: 'operator' },
        { title: '时间', dataIndex: 'createTime', width: 100, render: (v: string) => v.slice(5, 16) },
      ]}
    />
  );
}
