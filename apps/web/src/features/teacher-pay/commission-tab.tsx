import { DownloadOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { PAY_METHODS, PAYMENT_KINDS, ROLE_LABEL, type StaffRole } from '@studio/contract';
import { Alert, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { yuan } from '../../shared/format.ts';
import { downloadWorkbook } from '../../shared/xlsx.ts';
import { commissionSheets } from './export.ts';
import { useClosedMonths, useCloseMonth, useCommission, useCommissionRates } from './hooks.ts';
import type { CommissionRow } from './types.ts';

const RateModal = lazy(() => import('./rate-modal.tsx'));
const SellerLinkModal = lazy(() => import('./seller-link-modal.tsx'));
const ReopenModal = lazy(() => import('./reopen-modal.tsx'));
const SellerChangeModal = lazy(() => import('./seller-change-modal.tsx'));

type Item = CommissionRow['items'][number];
interface RateRow {
  staffId: number;
  name: string;
  role: string;
  enabled: number;
  rate: number;
  perConversion: number;
}

/**
 * 销售提成 (店长): each staff member's rate and per-conversion amount, and the month's commission per
 * seller (the money they took for card sales and top-ups, less the refunds of what they sold, and
 * the leads of theirs converted), closing, reopening, export.
 */
export default function CommissionTab({ month }: { month: string }) {
  const [rateOf, setRateOf] = useState<RateRow | null>(null);
  const [linkOf, setLinkOf] = useState<RateRow | null>(null);
  const [reopening, setReopening] = useState(false);
  const [changing, setChanging] = useState<{ item: Item; sellerId: number } | null>(null);
  const rates = useCommissionRates(true);
  const q = useCommission(month, true);
  const closed = useClosedMonths().data?.find((c) => c.kind === 'commission' && c.month === month);
  const close = useCloseMonth('commission');
  const rows = q.data ?? [];
  return (
    <div data-testid="pay-commission">
      <Card
        size="small"
        title={`${month} 销售提成`}
        style={{ marginBottom: 16 }}
        extra={
          <Space wrap>
            {closed ? (
              <Tag icon={<LockOutlined />} color="green" data-testid="commission-month-state">
                已结算关闭（{closed.closedBy}，{closed.closedAt.slice(0, 16)}）
              </Tag>
            ) : (
              <Tag data-testid="commission-month-state">未结算</Tag>
            )}
            {closed ? (
              <Button icon={<UnlockOutlined />} onClick={() => setReopening(true)}>
                重新打开
              </Button>
            ) : (
              <Popconfirm
                title={`结算并关闭 ${month} 销售提成？`}
                description="关闭后本月的提成不再变化，直到重新打开。"
                okText="结算关闭"
                onConfirm={() => close.run(month)}
              >
                <Button type="primary" icon={<LockOutlined />} loading={close.loading}>
                  结算并关闭该月
                </Button>
              </Popconfirm>
            )}
            <Button
              icon={<DownloadOutlined />}
              disabled={!rows.length}
              onClick={() => downloadWorkbook(`销售提成${month}`, commissionSheets(rows))}
            >
              导出Excel
            </Button>
          </Space>
        }
      >
        {closed && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message="这是结算关闭时的提成，之后的改动不会改变它。"
          />
        )}
        <Table<CommissionRow>
          size="small"
          rowKey="staffId"
          loading={q.isFetching}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: '本月没有员工售卡或充值的收款，也没有成交的潜客' }}
          expandable={{
            expandedRowRender: (r) => (
              <>
                <Table<Item>
                  size="small"
                  rowKey="id"
                  dataSource={r.items}
                  pagination={false}
                  columns={[
                    { title: '时间', dataIndex: 'time', width: 170 },
                    { title: '类型', dataIndex: 'kind', width: 70, render: (k: Item['kind']) => PAYMENT_KINDS[k] },
                    { title: '会员', dataIndex: 'memberName' },
                    { title: '卡种', dataIndex: 'cardName' },
                    {
                      title: '收款方式',
                      dataIndex: 'method',
                      render: (m: string, i) =>
                        `${PAY_METHODS[m as keyof typeof PAY_METHODS] ?? m}${i.channel === 'online' ? '（线上）' : ''}`,
                    },
                    {
                      title: '金额（元）',
                      dataIndex: 'amount',
                      align: 'right',
                      render: (v: number, i) => (i.kind === 'refund' ? `-${yuan(v)}` : yuan(v)),
                    },
                    {
                      title: '',
                      key: 'seller',
                      width: 100,
                      // A sale or top-up of a month still open may be credited to another seller.
                      render: (_: unknown, i) =>
                        !closed && i.kind !== 'refund' ? (
                          <a onClick={() => setChanging({ item: i, sellerId: r.staffId })}>更改销售员</a>
                        ) : null,
                    },
                  ]}
                />
                {r.conversions.length > 0 && (
                  <Table<CommissionRow['conversions'][number]>
                    size="small"
                    rowKey="leadId"
                    data-testid="commission-conversions"
                    style={{ marginTop: 8 }}
                    dataSource={r.conversions}
                    pagination={false}
                    columns={[
                      { title: '成交时间', dataIndex: 'convertedAt', width: 170 },
                      { title: '潜客', dataIndex: 'name' },
                      { title: '办的卡', dataIndex: 'cardName' },
                      { title: '成交提成（元）', key: 'pay', align: 'right', render: () => yuan(r.perConversion) },
                    ]}
                  />
                )}
              </>
            ),
          }}
          columns={[
            { title: '员工', dataIndex: 'name' },
            { title: '销售收款（元）', dataIndex: 'sales', align: 'right', render: (v: number) => yuan(v) },
            { title: '退款（元）', dataIndex: 'refunds', align: 'right', render: (v: number) => yuan(v) },
            { title: '净额（元）', key: 'net', align: 'right', render: (_, r) => yuan(r.sales - r.refunds) },
            { title: '比例', dataIndex: 'rate', align: 'right', render: (v: number) => `${v}%` },
            {
              title: '成交潜客',
              key: 'conversions',
              align: 'right',
              render: (_, r) => r.conversions.length,
            },
            {
              title: '成交提成（元）',
              dataIndex: 'conversionPay',
              align: 'right',
              render: (v: number) => yuan(v),
            },
            {
              title: '提成（元）',
              dataIndex: 'commission',
              align: 'right',
              render: (v: number) => <strong>{yuan(v)}</strong>,
            },
          ]}
          summary={(all) =>
            all.length ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} />
                <Table.Summary.Cell index={1}>合计</Table.Summary.Cell>
                <Table.Summary.Cell index={2} align="right">
                  {yuan(all.reduce((n, r) => n + r.sales, 0))}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">
                  {yuan(all.reduce((n, r) => n + r.refunds, 0))}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={4} align="right">
                  {yuan(all.reduce((n, r) => n + r.sales - r.refunds, 0))}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={5} />
                <Table.Summary.Cell index={6} align="right">
                  {all.reduce((n, r) => n + r.conversions.length, 0)}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={7} align="right">
                  {yuan(all.reduce((n, r) => n + r.conversionPay, 0))}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={8} align="right">
                  <strong data-testid="commission-total">{yuan(all.reduce((n, r) => n + r.commission, 0))}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            ) : null
          }
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          退款计入售出该卡（或该笔充值）的员工；会员自己在手机上下单的线上订单，只有从员工的推广链接进入时才计入该员工。潜客成交计入成交时跟进该潜客的员工，每位潜客只计一次。
        </Typography.Paragraph>
      </Card>
      <Card size="small" title="提成比例">
        <Table<RateRow>
          size="small"
          rowKey="staffId"
          loading={rates.isFetching}
          dataSource={rates.data ?? []}
          pagination={false}
          columns={[
            { title: '员工', dataIndex: 'name' },
            { title: '角色', dataIndex: 'role', render: (r: string) => ROLE_LABEL[r as StaffRole] ?? r },
            { title: '状态', dataIndex: 'enabled', render: (v: number) => (v ? '启用' : <Tag>停用</Tag>) },
            { title: '提成比例', dataIndex: 'rate', align: 'right', render: (v: number) => `${v}%` },
            {
              title: '每成交一位潜客',
              dataIndex: 'perConversion',
              align: 'right',
              render: (v: number) => `${yuan(v)} 元`,
            },
            {
              title: '操作',
              width: 160,
              render: (_, r) => (
                <Space>
                  <a onClick={() => setRateOf(r)}>设置</a>
                  <a onClick={() => setLinkOf(r)}>推广链接</a>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Suspense fallback={null}>
        {rateOf && <RateModal staff={rateOf} onClose={() => setRateOf(null)} />}
        {linkOf && <SellerLinkModal staff={linkOf} onClose={() => setLinkOf(null)} />}
        {reopening && <ReopenModal kind="commission" month={month} onClose={() => setReopening(false)} />}
        {changing && (
          <SellerChangeModal item={changing.item} sellerId={changing.sellerId} onClose={() => setChanging(null)} />
        )}
      </Suspense>
    </div>
  );
}
