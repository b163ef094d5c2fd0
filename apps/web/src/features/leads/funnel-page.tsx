import { FUNNEL_STEP_LABEL, FUNNEL_STEPS, type FunnelCounts, type FunnelLead, type FunnelStep } from '@studio/contract';
import { Button, Card, Modal, Space, Statistic, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useStoreClock } from '../../shared/store-time.ts';
import { ReportRangePicker } from '../../shared/report-range.tsx';
import { downloadWorkbook, type Sheet } from '../../shared/xlsx.ts';
import { useLeadFunnel, useLeadFunnelList, type FunnelListReq, type FunnelRange } from './hooks.ts';
import { StageTag } from './lead-labels.tsx';

/** The share of the cohort that reached a step. */
const pct = (n: number, of: number) => `${(of ? (n / of) * 100 : 0).toFixed(1)}%`;
const days = (d: number | null) => (d === null ? '-' : `${d}天`);

/** Which group a number belongs to: all leads, one source, one owner (0: 公海) or one trial teacher. */
type Group = { source?: string; ownerId?: number; teacherId?: number; label: string };

/** /lead/funnel: 转化漏斗 (店长) — leads added in a range, how far they got, by source, owner and trial teacher. */
export default function FunnelPage() {
  const clock = useStoreClock();
  const today = clock.day();
  const [range, setRange] = useState<FunnelRange>({
    fromDate: today.startOf('month').format('YYYY-MM-DD'),
    toDate: today.endOf('month').format('YYYY-MM-DD'),
  });
  const q = useLeadFunnel(range);
  const f = q.data;
  const [shown, setShown] = useState<{ step: FunnelStep; group: Group } | null>(null);

  /** A count that opens the list of its leads. */
  const num = (c: FunnelCounts, step: FunnelStep, group: Group) => (
    <a
      data-testid={`funnel-${step}-${group.label}`}
      aria-label={`${group.label} ${FUNNEL_STEP_LABEL[step]} ${c[step]}人，查看名单`}
      onClick={() => setShown({ step, group })}
    >
      {c[step]}
    </a>
  );
  const groupColumns = (title: string, group: (r: FunnelCounts & Record<string, unknown>) => Group) => [
    { title, key: 'g', render: (_: unknown, r: FunnelCounts & Record<string, unknown>) => group(r).label },
    ...FUNNEL_STEPS.map((s) => ({
      title: FUNNEL_STEP_LABEL[s],
      key: s,
      render: (_: unknown, r: FunnelCounts & Record<string, unknown>) => num(r, s, group(r)),
    })),
    { title: '成交率', key: 'rate', render: (_: unknown, r: FunnelCounts) => pct(r.converted, r.leads) },
    { title: '成交天数中位数', key: 'days', render: (_: unknown, r: FunnelCounts) => days(r.medianDays) },
  ];

  const exportXlsx = () => {
    if (!f) return;
    const head = [
      ...FUNNEL_STEPS.map((s) => ({ header: FUNNEL_STEP_LABEL[s] })),
      { header: '成交率' },
      { header: '成交天数中位数' },
    ];
    const line = (c: FunnelCounts) => [...FUNNEL_STEPS.map((s) => c[s]), pct(c.converted, c.leads), c.medianDays];
    const sheets: Sheet[] = [
      {
        name: '漏斗',
        columns: [{ header: '步骤' }, { header: '人数' }, { header: '占新增潜客' }],
        rows: FUNNEL_STEPS.map((s) => [FUNNEL_STEP_LABEL[s], f.total[s], pct(f.total[s], f.total.leads)]),
      },
      { name: '按来源', columns: [{ header: '来源' }, ...head], rows: f.bySource.map((r) => [r.source, ...line(r)]) },
      {
        name: '按跟进人',
        columns: [{ header: '跟进人' }, ...head],
        rows: f.byOwner.map((r) => [r.ownerName, ...line(r)]),
      },
      {
        name: '按体验课老师',
        columns: [{ header: '体验课老师' }, ...head],
        rows: f.byTeacher.map((r) => [r.teacherName, ...line(r)]),
      },
    ];
    void downloadWorkbook(`转化漏斗_${range.fromDate}_${range.toDate}`, sheets);
  };

  return (
    <Card
      title="转化漏斗"
      extra={
        <Space wrap>
          <span data-testid="funnel-range">
            <ReportRangePicker value={range} onChange={setRange} />
          </span>
          <Button icon={<DownloadOutlined />} disabled={!f} onClick={exportXlsx}>
            导出Excel
          </Button>
        </Space>
      }
    >
      <p>统计日期范围内新增的潜客走到了哪一步（不论何时走到）；点数字查看名单。</p>
      <Space wrap size={12} style={{ marginBottom: 16 }} data-testid="funnel-total">
        {FUNNEL_STEPS.map((s) => (
          <Card key={s} size="small" style={{ minWidth: 120 }}>
            <Statistic
              title={FUNNEL_STEP_LABEL[s]}
              valueRender={() => (f ? num(f.total, s, { label: '全部' }) : '-')}
            />
            {f && s !== 'leads' && <div>占 {pct(f.total[s], f.total.leads)}</div>}
          </Card>
        ))}
        <Card size="small" style={{ minWidth: 120 }}>
          <Statistic title="成交天数中位数" value={f ? days(f.total.medianDays) : '-'} />
        </Card>
      </Space>
      <h2 style={{ fontSize: 16 }}>按来源</h2>
      <Table
        rowKey="source"
        size="small"
        pagination={false}
        loading={q.isFetching}
        dataSource={f?.bySource ?? []}
        columns={groupColumns('来源', (r) => ({ source: r.source as string, label: r.source as string }))}
      />
      <h2 style={{ fontSize: 16, marginTop: 16 }}>按跟进人</h2>
      <Table
        rowKey="ownerId"
        size="small"
        pagination={false}
        loading={q.isFetching}
        dataSource={f?.byOwner ?? []}
        columns={groupColumns('跟进人', (r) => ({ ownerId: r.ownerId as number, label: r.ownerName as string }))}
      />
      <h2 style={{ fontSize: 16, marginTop: 16 }}>按体验课老师</h2>
      <Table
        rowKey="teacherId"
        size="small"
        pagination={false}
        loading={q.isFetching}
        data-testid="funnel-by-teacher"
        locale={{ emptyText: '范围内的潜客还没有上过体验课' }}
        dataSource={f?.byTeacher ?? []}
        columns={groupColumns('体验课老师', (r) => ({
          teacherId: r.teacherId as number,
          label: r.teacherName as string,
        }))}
      />
      {shown && <FunnelList range={range} {...shown} onClose={() => setShown(null)} />}
    </Card>
  );
}

/** The leads behind one number. */
function FunnelList({
  range,
  step,
  group,
  onClose,
}: {
  range: FunnelRange;
  step: FunnelStep;
  group: Group;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const req: FunnelListReq = {
    ...range,
    step,
    source: group.source,
    ownerId: group.ownerId,
    teacherId: group.teacherId,
    page,
  };
  const q = useLeadFunnelList(req);
  return (
    <Modal open footer={null} width={760} title={`${group.label} · ${FUNNEL_STEP_LABEL[step]}`} onCancel={onClose}>
      <Table<FunnelLead>
        rowKey="id"
        size="small"
        data-testid="funnel-list"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: q.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: '姓名', dataIndex: 'name' },
          { title: '手机号', dataIndex: 'mobile' },
          { title: '来源', dataIndex: 'source' },
          { title: '跟进人', dataIndex: 'ownerName', render: (v: string | null) => v ?? '公海' },
          { title: '阶段', dataIndex: 'stage', render: (s: FunnelLead['stage']) => <StageTag stage={s} /> },
          { title: '新增时间', dataIndex: 'createdAt', render: (v: string) => v.slice(0, 16) },
          { title: '成交时间', dataIndex: 'convertedAt', render: (v: string | null) => v?.slice(0, 16) ?? '-' },
        ]}
      />
    </Modal>
  );
}
