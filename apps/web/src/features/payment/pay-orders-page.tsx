import {
  PAY_ORDER_LIST_MAX_DAYS,
  PAY_ORDER_STATUS_LABEL,
  PAY_REFUND_STATUS_LABEL,
  PayMsg,
  type PayRefund,
  type PayRefundStatus,
  type PayOrderMethod,
  type PayOrderStatus,
  type StorePayOrder,
} from '@studio/contract';
import { App, Button, Card, DatePicker, Form, Select, Table, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { yuan } from '../../shared/format.ts';
import { Link } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { usePayOrderList } from './desk-pay-hooks.ts';
import ReconcileTab from './reconcile-tab.tsx';

const RefundOrderModal = lazy(() => import('./refund-order-modal.tsx'));

const D = 'YYYY-MM-DD';
const PAGE_SIZE = 20;

const METHOD_LABEL: Record<PayOrderMethod, string> = {
  wechat_jsapi: '微信内支付',
  wechat_native: '微信扫码',
  alipay_wap: '支付宝手机网站',
  alipay_precreate: '支付宝扫码',
};
const STATUS_COLOR: Record<PayOrderStatus, string> = {
  created: 'gold',
  paid: 'green',
  closed: 'default',
  refunded: 'red',
  partially_refunded: 'orange',
  exception: 'red',
};
const REFUND_COLOR: Record<PayRefundStatus, string> = {
  processing: 'processing',
  success: 'default',
  failed: 'orange',
  abnormal: 'red',
};

/** An order's refunds: each one's state and amount; a failed or abnormal one says why and what to do. */
function Refunds({ list }: { list: PayRefund[] }) {
  if (!list.length) return <>-</>;
  return (
    <div data-testid="pay-order-refunds">
      {list.map((r) => (
        <div key={r.refundNo} style={{ marginBottom: 4 }}>
          <Tag color={REFUND_COLOR[r.status]}>{PAY_REFUND_STATUS_LABEL[r.status]}</Tag>
          {yuan(r.amount)} 元
          {r.note && (
            <div style={{ color: r.status === 'abnormal' ? '#cf1322' : undefined, fontSize: 12, whiteSpace: 'normal' }}>
              {r.note}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

const STATUS_OPTIONS = (Object.keys(PAY_ORDER_STATUS_LABEL) as PayOrderStatus[]).map((s) => ({
  value: s,
  label: PAY_ORDER_STATUS_LABEL[s],
}));

/** 线上订单 (店长): the orders and, in a second tab, 对账 (the providers' bills matched with them). */
export default function PayOrdersPage() {
  return (
    <Card title="线上订单" extra={<Link to="/settings/pay">在线收款设置</Link>}>
      <Tabs
        items={[
          { key: 'orders', label: '订单', children: <OrdersTab /> },
          { key: 'reconcile', label: '对账', children: <ReconcileTab /> },
        ]}
      />
    </Card>
  );
}

/**
 * The store's online orders (members' own and the desk's 扫码收款) by day and status; 退款 on paid ones,
 * 原路退款 (in full) on an 异常订单, which says why it was not fulfilled.
 */
function OrdersTab() {
  const { message } = App.useApp();
  const clock = useStoreClock();
  const [range, setRange] = useState({ fromDate: clock.day().subtract(6, 'day').format(D), toDate: clock.today() });
  const [status, setStatus] = useState<PayOrderStatus>();
  const [page, setPage] = useState(1);
  const q = usePayOrderList({ ...range, status, page });
  const [refunding, setRefunding] = useState<StorePayOrder>();

  return (
    <>
      <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }} data-testid="pay-order-filters">
        <Form.Item label="下单日期">
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(range.fromDate), dayjs(range.toDate)]}
            onChange={(v) => {
              if (!v?.[0] || !v[1]) return;
              if (v[1].diff(v[0], 'day') + 1 > PAY_ORDER_LIST_MAX_DAYS) return void message.error(PayMsg.listRange);
              setRange({ fromDate: v[0].format(D), toDate: v[1].format(D) });
              setPage(1);
            }}
          />
        </Form.Item>
        <Form.Item label="状态">
          <Select
            allowClear
            placeholder="全部状态"
            style={{ width: 130 }}
            value={status}
            onChange={(v?: PayOrderStatus) => {
              setStatus(v);
              setPage(1);
            }}
            options={STATUS_OPTIONS}
            aria-label="状态"
            data-testid="pay-order-status"
          />
        </Form.Item>
      </Form>
      <Table<StorePayOrder>
        rowKey="orderNo"
        size="middle"
        scroll={{ x: 1590 }}
        data-testid="pay-order-table"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        locale={{ emptyText: '这段时间没有线上订单' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: q.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 笔`,
          onChange: setPage,
        }}
        columns={[
          { title: '下单时间', dataIndex: 'createTime', width: 140, render: (v: string) => v.slice(0, 16) },
          { title: '订单号', dataIndex: 'orderNo' },
          {
            title: '会员',
            dataIndex: 'memberName',
            render: (_: string, o) => (
              <Link to={`/member/detail?member_id=${o.memberId}`}>
                {o.memberName} {o.memberMobile}
              </Link>
            ),
          },
          { title: '内容', dataIndex: 'name', width: 150 },
          { title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right', render: (v: number) => yuan(v) },
          {
            title: '状态',
            dataIndex: 'status',
            width: 180,
            render: (s: PayOrderStatus, o) => (
              <>
                <Tag color={STATUS_COLOR[s]}>{PAY_ORDER_STATUS_LABEL[s]}</Tag>
                {o.exceptionReason && (
                  <div
                    data-testid="pay-order-exception"
                    style={{ color: s === 'exception' ? '#cf1322' : undefined, fontSize: 12, whiteSpace: 'normal' }}
                  >
                    已付款，{o.exceptionReason}
                  </div>
                )}
              </>
            ),
          },
          {
            title: '已退款（元）',
            dataIndex: 'refunded',
            width: 110,
            align: 'right',
            render: (v: number) => (v ? yuan(v) : '-'),
          },
          {
            title: '退款记录',
            dataIndex: 'refunds',
            width: 240,
            render: (list: PayRefund[]) => <Refunds list={list} />,
          },
          { title: '方式', dataIndex: 'method', width: 120, render: (m: PayOrderMethod) => METHOD_LABEL[m] ?? m },
          {
            title: '收款人',
            dataIndex: 'staffName',
            width: 110,
            render: (v: string | null) => v ?? '会员自助',
          },
          {
            title: '支付时间',
            dataIndex: 'paidTime',
            width: 140,
            render: (v: string | null) => (v ? v.slice(0, 16) : '-'),
          },
          {
            title: '操作',
            key: 'op',
            width: 90,
            fixed: 'right',
            render: (_: unknown, o) =>
              o.status === 'paid' || o.status === 'partially_refunded' || o.status === 'exception' ? (
                <Button type="link" size="small" danger onClick={() => setRefunding(o)}>
                  {o.status === 'exception' ? '原路退款' : '退款'}
                </Button>
              ) : null,
          },
        ]}
      />
      {refunding && (
        <Suspense>
          <RefundOrderModal order={refunding} onClose={() => setRefunding(undefined)} />
        </Suspense>
      )}
    </>
  );
}
