import { PlusOutlined } from '@ant-design/icons';
import { memberCardLedger, type MemberCardRow } from '@studio/contract';
import { useQueries } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Result, Skeleton, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { call } from '../../api/client.ts';
import dayjs from '../../app/dayjs.ts';
import IssueCardModal from '../cards/issue-card-modal.tsx';
import { useSessionsOf } from '../cards/ledger-drawer.tsx';
import { MemberCardTable } from '../cards/member-card-table.tsx';
import { useMemberInfo } from '../cards/member-cards.ts';
import { amountIn } from '../cards/products.ts';
import MemberFormModal, { GENDERS } from './member-form-modal.tsx';

interface Visit {
  key: string;
  timetableId: number;
  card: MemberCardRow;
  charged: number;
  refunded: number;
  at: string;
}

/** Sessions the member's cards paid for, from the card ledgers (deductions net of refunds). */
function useVisits(cards: MemberCardRow[]) {
  const ledgers = useQueries({
    queries: cards.map((c) => ({
      queryKey: ['member-ledger', c.id],
      queryFn: () => call(memberCardLedger, { id: c.id }),
    })),
  });
  const visits = new Map<string, Visit>();
  ledgers.forEach((q, i) => {
    for (const r of q.data ?? []) {
      if (!r.timetableId || (r.kind !== 'deduct' && r.kind !== 'refund')) continue;
      const key = `${cards[i].id}-${r.timetableId}`;
      const v = visits.get(key) ?? {
        key,
        timetableId: r.timetableId,
        card: cards[i],
        charged: 0,
        refunded: 0,
        at: r.createdAt,
      };
      if (r.kind === 'deduct') v.charged += r.amount;
      else v.refunded += Math.abs(r.amount);
      visits.set(key, v);
    }
  });
  return { visits: [...visits.values()], loading: ledgers.some((q) => q.isFetching) };
}

/** /member/detail?member_id=ID: the member, their cards with balances, and their sessions. */
export default function MemberDetailPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('member_id')) || 0;
  const q = useMemberInfo(id || undefined);
  const [editing, setEditing] = useState(false);
  const [issuing, setIssuing] = useState(false);
  const { visits, loading } = useVisits(q.data?.cards ?? []);
  const sessions = useSessionsOf(visits.map((v) => v.timetableId));
  if (!id) return <Result status="404" title="请选择会员" />;
  if (q.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const m = q.data;
  if (!m) return <Result status="404" title="会员不存在" />;

  const now = dayjs().format('YYYY-MM-DD HH:mm:ss');
  const rows = visits
    .map((v) => ({ ...v, session: sessions.get(v.timetableId) }))
    .sort((a, b) => (b.session?.startTime ?? b.at).localeCompare(a.session?.startTime ?? a.at));
  const upcoming = rows.filter((r) => (r.session?.startTime ?? r.at) >= now).reverse();
  const past = rows.filter((r) => (r.session?.startTime ?? r.at) < now);
  const table = (data: typeof rows, testId: string) => (
    <Table
      rowKey="key"
      size="small"
      data-testid={testId}
      loading={loading}
      dataSource={data}
      pagination={{ pageSize: 10 }}
      locale={{ emptyText: '暂无记录' }}
      columns={[
        {
          title: '上课时间',
          width: 160,
          render: (_, r) => r.session?.startTime.slice(0, 16) ?? '-',
        },
        {
          title: '课程',
          render: (_, r) => (
            <a href={`/course/calendar/detail?course_calendar_id=${r.timetableId}`} target="_blank" rel="noreferrer">
              {r.session?.courseName ?? `课程 #${r.timetableId}（已删除）`}
            </a>
          ),
        },
        { title: '老师', width: 100, render: (_, r) => r.session?.teacherName ?? '-' },
        { title: '会员卡', width: 140, render: (_, r) => r.card.cardName },
        { title: '扣除', width: 100, render: (_, r) => amountIn(r.card.bigType, r.charged) },
        {
          title: '状态',
          width: 90,
          render: (_, r) =>
            r.refunded >= r.charged && r.charged > 0 ? <Tag>已取消退还</Tag> : <Tag color="green">已扣费</Tag>,
        },
      ]}
    />
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={`会员详情：${m.name}`}
        extra={
          <Button onClick={() => setEditing(true)} data-testid="edit-member">
            编辑
          </Button>
        }
      >
        <Descriptions size="small" column={4} bordered>
          <Descriptions.Item label="姓名">{m.name}</Descriptions.Item>
          <Descriptions.Item label="手机号">{m.mobile}</Descriptions.Item>
          <Descriptions.Item label="性别">
            {GENDERS.find((g) => g.value === m.gender)?.label ?? '未知'}
          </Descriptions.Item>
          <Descriptions.Item label="出生日期">{m.birthday || '-'}</Descriptions.Item>
          <Descriptions.Item label="入会时间">{m.createdAt.slice(0, 10)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card
        title="会员卡"
        extra={
          <Button icon={<PlusOutlined />} onClick={() => setIssuing(true)}>
            发卡
          </Button>
        }
      >
        <MemberCardTable cards={m.cards} loading={q.isFetching} />
      </Card>
      <Card title="上课记录">
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          根据会员卡扣费流水列出（签到后扣费模式下尚未签到的预约不在此列）。
        </Typography.Paragraph>
        {m.cards.length === 0 ? (
          <Empty description="暂无会员卡" />
        ) : (
          <Tabs
            items={[
              { key: 'upcoming', label: `待上课（${upcoming.length}）`, children: table(upcoming, 'upcoming-table') },
              { key: 'past', label: `已上课（${past.length}）`, children: table(past, 'past-table') },
            ]}
          />
        )}
      </Card>
      {editing && <MemberFormModal member={m} onClose={() => setEditing(false)} />}
      {issuing && <IssueCardModal memberId={m.id} onClose={() => setIssuing(false)} />}
    </Space>
  );
}
