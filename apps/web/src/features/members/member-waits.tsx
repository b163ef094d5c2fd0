import { WaitStatus, type MemberWaitRow } from '@studio/contract';
import { Table, Tag } from 'antd';
import { useMemberWaits } from './hooks.ts';

const STATES: Record<number, { label: string; color: string }> = {
  [WaitStatus.WAITING]: { label: '候补中', color: 'orange' },
  [WaitStatus.PROMOTED]: { label: '已递补', color: 'green' },
  [WaitStatus.LEFT]: { label: '已退出', color: 'default' },
  [WaitStatus.ENDED]: { label: '未递补', color: 'default' },
};

/** A member's waits: classes waited for with their place in the queue, and how recent waits ended. */
export function MemberWaits({ memberId, compact = false }: { memberId: number; compact?: boolean }) {
  const q = useMemberWaits(memberId);
  return (
    <Table<MemberWaitRow>
      rowKey="id"
      size="small"
      loading={q.isFetching}
      dataSource={q.data ?? []}
      pagination={compact ? false : { pageSize: 10, hideOnSinglePage: true }}
      data-testid="member-waits"
      locale={{ emptyText: '暂无候补' }}
      columns={[
        {
          title: '课程',
          key: 'session',
          render: (_, r) => (
            <a href={`/course/calendar/detail?course_calendar_id=${r.session.id}`} target="_blank" rel="noreferrer">
              {r.session.courseName} {r.session.startTime.slice(5, 16)}
            </a>
          ),
        },
        ...(compact ? [] : [{ title: '会员卡', dataIndex: 'cardName' }]),
        {
          title: '状态',
          key: 'state',
          width: compact ? 110 : 200,
          render: (_, r) => (
            <>
              <Tag color={STATES[r.status]?.color}>{STATES[r.status]?.label ?? r.status}</Tag>
              {r.position ? `第 ${r.position} 位` : null}
              {!compact && r.skipReason && r.status === WaitStatus.WAITING ? `（上次未递补：${r.skipReason}）` : null}
            </>
          ),
        },
      ]}
    />
  );
}
