import { LEAD_STAGE_LABEL, MARKETING_SEND_PAGE, type queryMarketingSendList, type ResOf } from '@studio/contract';
import { Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useMarketingSends } from './hooks.ts';

type Row = ResOf<typeof queryMarketingSendList>['list'][number];

/** Who a send went to, in words: 会员、潜客（已联系、新线索）. */
const audienceOf = (r: Row) =>
  [
    r.toMembers ? '会员' : '',
    r.toLeads
      ? `潜客${r.leadStages.length ? `（${r.leadStages.map((s) => LEAD_STAGE_LABEL[s]).join('、')}）` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join('、');

/**
 * 发送记录 (店长): each marketing send with its time, who sent it, the text, the audience and how many
 * were reached, and from the send queue how many went, failed, were withdrawn before their text or wait.
 */
export default function MarketingSends() {
  const [page, setPage] = useState(1);
  const q = useMarketingSends(page);
  return (
    <Table<Row>
      data-testid="marketing-sends"
      size="small"
      rowKey="id"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: '还没有发送过营销短信' }}
      pagination={{
        current: page,
        pageSize: MARKETING_SEND_PAGE,
        total: q.data?.total ?? 0,
        showSizeChanger: false,
        onChange: setPage,
      }}
      columns={[
        { title: '发送时间', dataIndex: 'createdAt', width: 160, render: (t: string) => t.slice(0, 16) },
        { title: '发送人', dataIndex: 'staffName', width: 90, render: (n: string) => n || '—' },
        {
          title: '短信内容',
          dataIndex: 'text',
          render: (t: string) => (
            <Typography.Paragraph ellipsis={{ rows: 2, tooltip: t }} style={{ marginBottom: 0 }}>
              {t}
            </Typography.Paragraph>
          ),
        },
        { title: '发送对象', key: 'audience', width: 150, render: (_, r) => audienceOf(r) },
        {
          title: '人数',
          key: 'counts',
          width: 190,
          render: (_, r) => (
            <span>
              {r.recipients} 人（会员 {r.members}，潜客 {r.leads}）
              <br />
              <Typography.Text type="secondary">未同意不发送 {r.excluded} 人</Typography.Text>
            </span>
          ),
        },
        {
          title: '发送结果',
          key: 'result',
          width: 200,
          render: (_, r) => (
            <span data-testid="marketing-send-result">
              <Tag color="green">已发送 {r.sent}</Tag>
              {r.failed > 0 && <Tag color="red">失败 {r.failed}</Tag>}
              {r.withdrawn > 0 && <Tag>发送前已退订 {r.withdrawn}</Tag>}
              {r.waiting > 0 && <Tag color="blue">待发送 {r.waiting}</Tag>}
            </span>
          ),
        },
      ]}
    />
  );
}
