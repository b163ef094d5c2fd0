import type { MemberBookingRow, MemberCardRow } from '@studio/contract';
import { Table, Tag } from 'antd';
import { amountText, timeRange } from '../../shared/format.ts';
import type { useMemberBookings } from './hooks.ts';

const STATUS_COLORS: Record<MemberBookingRow['statusText'], string> = {
  已预约: 'blue',
  已签到: 'green',
  待签到: 'orange',
};

/**
 * What a booking deducted, in its card's unit. The row names the card product only, so the unit is
 * taken from the member's card of that name (a plain number when the member no longer holds one).
 */
function deducted(r: MemberBookingRow, cards: MemberCardRow[]) {
  if (r.kind === 'pending') return '-';
  const card = cards.find((c) => c.cardName === r.cardName);
  return card ? amountText(card.bigType, r.usedCount) : String(r.usedCount);
}

/** The paged table of a member's bookings in one scope. */
export function MemberBookingTable({
  bookings,
  cards,
  testId,
}: {
  bookings: ReturnType<typeof useMemberBookings>;
  cards: MemberCardRow[];
  testId: string;
}) {
  const { q, paging, setPaging } = bookings;
  return (
    <Table<MemberBookingRow>
      rowKey={(r) => `${r.kind}-${r.id}`}
      size="small"
      data-testid={testId}
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: '暂无记录' }}
      pagination={{
        current: paging.page,
        pageSize: paging.pageSize,
        total: q.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50],
        showTotal: (n) => `共 ${n} 条`,
        onChange: (page, pageSize) => setPaging({ page: pageSize === paging.pageSize ? page : 1, pageSize }),
      }}
      columns={[
        {
          title: '上课时间',
          width: 185,
          render: (_, r) => timeRange(r.startTime, r.endTime),
        },
        {
          title: '课程',
          render: (_, r) => (
            <a href={`/course/calendar/detail?course_calendar_id=${r.timetableId}`} target="_blank" rel="noreferrer">
              {r.courseName}
            </a>
          ),
        },
        { title: '老师', width: 100, dataIndex: 'teacherName' },
        { title: '场地', width: 110, render: (_, r) => r.areaName ?? '-' },
        { title: '人数', width: 60, dataIndex: 'studentCount' },
        { title: '会员卡', width: 130, render: (_, r) => r.cardName ?? '-' },
        { title: '扣除', width: 100, render: (_, r) => deducted(r, cards) },
        {
          title: '状态',
          width: 80,
          render: (_, r) => <Tag color={STATUS_COLORS[r.statusText]}>{r.statusText}</Tag>,
        },
        { title: '预约时间', width: 140, render: (_, r) => r.createTime.slice(0, 16) },
      ]}
    />
  );
}
