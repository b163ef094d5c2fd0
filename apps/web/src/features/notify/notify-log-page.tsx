import {
  NOTIFY_CHANNEL_LABEL,
  NOTIFY_KIND_LABEL,
  NOTIFY_KINDS,
  NOTIFY_LOG_MAX_DAYS,
  NOTIFY_STATUS,
  NOTIFY_STATUS_LABEL,
  NotifyMsg,
  type NotifyKind,
  type NotifyStatus,
  type ResOf,
  type queryNotifyLog,
} from '@studio/contract';
import { App, Card, DatePicker, Form, Select, Table, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { useNotifyLog } from './hooks.ts';

type Row = ResOf<typeof queryNotifyLog>['list'][number];
type Day = ResOf<typeof queryNotifyLog>['days'][number];

const D = 'YYYY-MM-DD';
const PAGE_SIZE = 20;
const STATUS_COLOR: Record<NotifyStatus, string> = {
  queued: 'gold',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
  skipped: 'default',
};

/** 消息记录 (店长、前台): every reminder with its channel and status, filterable; per day the sends against the SMS cap. */
export default function NotifyLogPage() {
  const { message } = App.useApp();
  const clock = useStoreClock();
  const [range, setRange] = useState({ fromDate: clock.day().subtract(6, 'day').format(D), toDate: clock.today() });
  const [kind, setKind] = useState<NotifyKind>();
  const [status, setStatus] = useState<NotifyStatus>();
  const [page, setPage] = useState(1);
  const q = useNotifyLog({ ...range, kind, status, page });
  const cap = q.data?.dailyCap ?? 0;
  const days = (q.data?.days ?? []).filter((d) => d.sms + d.wechat + d.failed + d.skipped > 0).reverse();
  return (
    <Card title="消息记录" extra={<Link to="/settings/notify">消息提醒设置</Link>}>
      <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }} data-testid="notify-log-filters">
        <Form.Item label="日期">
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(range.fromDate), dayjs(range.toDate)]}
            onChange={(v) => {
              if (!v?.[0] || !v[1]) return;
              if (v[1].diff(v[0], 'day') + 1 > NOTIFY_LOG_MAX_DAYS) return void message.error(NotifyMsg.listRange);
              setRange({ fromDate: v[0].format(D), toDate: v[1].format(D) });
              setPage(1);
            }}
          />
        </Form.Item>
        <Form.Item label="类型">
          <Select
            allowClear
            placeholder="全部类型"
            style={{ width: 150 }}
            value={kind}
            aria-label="类型"
            onChange={(v?: NotifyKind) => {
              setKind(v);
              setPage(1);
            }}
            options={NOTIFY_KINDS.map((k) => ({ value: k, label: NOTIFY_KIND_LABEL[k] }))}
          />
        </Form.Item>
        <Form.Item label="状态">
          <Select
            allowClear
            placeholder="全部状态"
            style={{ width: 120 }}
            value={status}
            aria-label="状态"
            onChange={(v?: NotifyStatus) => {
              setStatus(v);
              setPage(1);
            }}
            options={NOTIFY_STATUS.map((s) => ({ value: s, label: NOTIFY_STATUS_LABEL[s] }))}
          />
        </Form.Item>
      </Form>
      <Table<Day>
        rowKey="date"
        size="small"
        style={{ marginBottom: 16 }}
        data-testid="notify-day-table"
        dataSource={days}
        pagination={false}
        locale={{ emptyText: '这段时间没有消息' }}
        columns={[
          { title: '日期', dataIndex: 'date', width: 120 },
          { title: '微信', dataIndex: 'wechat', width: 80 },
          {
            title: `短信（每天上限 ${cap} 条）`,
            dataIndex: 'sms',
            render: (n: number) => (
              <span style={{ color: n >= cap && cap > 0 ? '#cf1322' : undefined }}>
                {n} / {cap}
              </span>
            ),
          },
          { title: '失败', dataIndex: 'failed', width: 80 },
          { title: '已跳过', dataIndex: 'skipped', width: 80 },
        ]}
      />
      <Table<Row>
        rowKey="id"
        size="middle"
        data-testid="notify-log-table"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        locale={{ emptyText: '这段时间没有消息' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: q.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 条`,
          onChange: setPage,
        }}
        columns={[
          {
            title: '时间',
            width: 140,
            render: (_: unknown, r) => (r.sentAt ?? r.dueAt).slice(0, 16),
          },
          {
            title: '会员',
            dataIndex: 'memberName',
            width: 120,
            render: (v: string, r) => (r.memberId ? <Link to={`/member/detail?member_id=${r.memberId}`}>{v}</Link> : v),
          },
          { title: '类型', dataIndex: 'kindLabel', width: 130 },
          {
            title: '内容',
            dataIndex: 'text',
            ellipsis: { showTitle: false },
            render: (v: string) => (
              <Tooltip title={v} placement="topLeft">
                {v}
              </Tooltip>
            ),
          },
          {
            title: '渠道',
            dataIndex: 'channel',
            width: 70,
            render: (c: Row['channel']) => (c ? NOTIFY_CHANNEL_LABEL[c] : '-'),
          },
          {
            title: '发送次数',
            dataIndex: 'tries',
            width: 90,
            render: (n: number) => (n ? `${n} 次` : '-'),
          },
          {
            title: '状态（失败原因）',
            width: 260,
            render: (_: unknown, r) => (
              <>
                <Tag color={STATUS_COLOR[r.status]}>
                  {r.status === 'skipped' && r.reason.startsWith('已跳过') ? r.reason : NOTIFY_STATUS_LABEL[r.status]}
                </Tag>
                {r.reason &&
                (r.status !== 'sent' || r.reason.includes('已改发短信')) &&
                !r.reason.startsWith('已跳过') ? (
                  <span style={{ fontSize: 12 }}>{r.reason}</span>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}
