import {
  LEAD_STAGE_LABEL,
  LEAD_STAGES,
  updateLeadOwner,
  type LeadRow,
  type LeadStage,
  type LeadTodo,
} from '@studio/contract';
import { Button, Card, Input, Select, Space, Table, Tabs, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useCan } from '../../shared/profile.ts';
import { useSellers } from '../../shared/reference.ts';
import { useLeadPage, useLeadSources, useLeadTodo, useTakeLead, type LeadFilter } from './hooks.ts';
import LeadDrawer from './lead-drawer.tsx';
import LeadFormModal from './lead-form-modal.tsx';
import { DUE_COLOR, DUE_LABEL, SourceText, StageTag } from './lead-labels.tsx';
import LeadSettingCard from './lead-setting.tsx';

type Tab = 'all' | 'todo' | 'pool' | 'setting';

/** /lead/list: 潜客 — the list with its filters, 我的待跟进, 公海, and (店长) 潜客设置. */
export default function LeadsPage() {
  const manager = useCan(updateLeadOwner);
  const [tab, setTab] = useState<Tab>('all');
  const [openId, setOpenId] = useState(0);
  const [adding, setAdding] = useState(false);
  const items = [
    { key: 'all', label: manager ? '全部潜客' : '我的潜客', children: <LeadTable scope="all" onOpen={setOpenId} /> },
    { key: 'todo', label: '我的待跟进', children: <TodoTable onOpen={setOpenId} /> },
    { key: 'pool', label: '公海', children: <LeadTable scope="pool" onOpen={setOpenId} /> },
    ...(manager ? [{ key: 'setting', label: '潜客设置', children: <LeadSettingCard /> }] : []),
  ];
  return (
    <Card
      title="潜客"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          添加潜客
        </Button>
      }
    >
      <Tabs activeKey={tab} onChange={(k) => setTab(k as Tab)} items={items} />
      {adding && (
        <LeadFormModal
          lead={null}
          onClose={(id) => {
            setAdding(false);
            if (id) setOpenId(id);
          }}
        />
      )}
      {openId > 0 && <LeadDrawer key={openId} id={openId} onClose={() => setOpenId(0)} onShow={setOpenId} />}
    </Card>
  );
}

/** Columns every list of leads shows. */
function leadColumns(onOpen: (id: number) => void) {
  return [
    {
      title: '姓名',
      dataIndex: 'name',
      render: (v: string, l: LeadRow) => (
        <Space size={4}>
          <a onClick={() => onOpen(l.id)}>{v}</a>
          {l.memberId !== null && <Tag color="green">已是会员</Tag>}
        </Space>
      ),
    },
    { title: '手机号', dataIndex: 'mobile' },
    { title: '来源', dataIndex: 'source', render: (v: string, l: LeadRow) => <SourceText lead={l} /> },
    { title: '阶段', dataIndex: 'stage', render: (s: LeadStage) => <StageTag stage={s} /> },
    { title: '跟进人', dataIndex: 'ownerName', render: (v: string | null) => v ?? '公海' },
    { title: '下次跟进', dataIndex: 'nextFollowUp', render: (v: string | null) => v ?? '-' },
    { title: '新增时间', dataIndex: 'createdAt', render: (v: string) => v.slice(0, 16) },
  ];
}

function LeadTable({ scope, onOpen }: { scope: 'all' | 'pool'; onOpen: (id: number) => void }) {
  const manager = useCan(updateLeadOwner);
  const sources = useLeadSources();
  const sellers = useSellers();
  const [f, setF] = useState<LeadFilter>({ scope, page: 1 });
  const set = (o: Partial<LeadFilter>) => setF((p) => ({ ...p, ...o, page: o.page ?? 1 }));
  const q = useLeadPage(f);
  const take = useTakeLead();
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label="阶段"
          data-testid="lead-filter-stage"
          allowClear
          placeholder="全部阶段"
          style={{ width: 130 }}
          value={f.stage ?? undefined}
          onChange={(v) => set({ stage: v ?? null })}
          options={LEAD_STAGES.map((s) => ({ value: s, label: LEAD_STAGE_LABEL[s] }))}
        />
        <Select
          aria-label="来源"
          allowClear
          placeholder="全部来源"
          style={{ width: 130 }}
          value={f.source ?? undefined}
          onChange={(v) => set({ source: v ?? null })}
          options={sources.map((s) => ({ value: s, label: s }))}
        />
        {manager && scope === 'all' && (
          <Select
            aria-label="跟进人"
            allowClear
            placeholder="全部跟进人"
            style={{ width: 140 }}
            value={f.ownerId ?? undefined}
            onChange={(v) => set({ ownerId: v ?? null })}
            options={(sellers.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        )}
        <Input.Search
          allowClear
          placeholder="姓名或手机号"
          style={{ width: 200 }}
          onSearch={(v) => set({ param: v.trim() || null })}
        />
      </Space>
      <Table<LeadRow>
        rowKey="id"
        size="middle"
        data-testid={`lead-table-${scope}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={{
          current: f.page,
          pageSize: 20,
          total: q.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 位潜客`,
          onChange: (page) => set({ page }),
        }}
        columns={[
          ...leadColumns(onOpen),
          {
            title: '操作',
            width: 120,
            render: (_, l) => (
              <Space>
                <a onClick={() => onOpen(l.id)}>跟进</a>
                {l.ownerId === null && <a onClick={() => void take.run(l.id)}>领取</a>}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

/** 我的待跟进: one's open leads, a missed trial class (体验课未到) first, then overdue and today's. */
function TodoTable({ onOpen }: { onOpen: (id: number) => void }) {
  const q = useLeadTodo();
  return (
    <Table
      rowKey="id"
      size="middle"
      data-testid="lead-todo"
      loading={q.isFetching}
      dataSource={q.data ?? []}
      pagination={false}
      locale={{ emptyText: '没有待跟进的潜客' }}
      columns={[
        {
          title: '待跟进',
          dataIndex: 'due',
          width: 120,
          render: (d: keyof typeof DUE_LABEL, r: LeadTodo) =>
            r.trialMissed ? (
              <Tag color="red" data-testid="trial-missed">
                体验课未到
              </Tag>
            ) : (
              <Tag color={DUE_COLOR[d]}>{DUE_LABEL[d]}</Tag>
            ),
        },
        ...leadColumns(onOpen),
      ]}
    />
  );
}
