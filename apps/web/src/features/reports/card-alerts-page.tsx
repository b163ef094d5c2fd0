import { updateAlertDigest, type cardAlertList, type ResOf } from '@studio/contract';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, InputNumber, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { Link } from '../../shared/router.tsx';
import { amountText, toFen, yuan } from '../../shared/format.ts';
import { useCan } from '../../shared/profile.ts';
import { downloadSheet } from '../../shared/xlsx.ts';
import { useCardAlerts, type AlertFilter } from './hooks.ts';
import { DigestSetting } from './digest-setting.tsx';
import { InactiveMembers } from './inactive-members.tsx';

type AlertRow = ResOf<typeof cardAlertList>[number];

const REASONS: Record<AlertRow['reasons'][number], { label: string; color: string }> = {
  expiring: { label: '即将到期', color: 'orange' },
  lowCount: { label: '次数不足', color: 'red' },
  lowMoney: { label: '余额不足', color: 'red' },
};
const reasonText = (r: AlertRow) => r.reasons.map((x) => REASONS[x].label).join('、');
const expiryText = (r: AlertRow) => (r.expireTime ? r.expireTime.slice(0, 10) : '永久有效');

/** Cards about to expire or running low, each with a link to its member. */
function CardAlerts() {
  const [filter, setFilter] = useState<Required<AlertFilter>>({ days: 30, minCount: 2, minMoney: 10_000 });
  const [search, setSearch] = useState('');
  const q = useCardAlerts(filter);
  // The daily push to the store's group is a store setting: the manager's.
  const canSetDigest = useCan(updateAlertDigest);
  const rows = (q.data ?? []).filter(
    (r) => !search || r.member.name.includes(search) || r.member.mobile.includes(search),
  );
  const exportSheet = () =>
    downloadSheet(
      '会员卡提醒',
      '会员卡提醒',
      [
        { header: '会员', width: 12 },
        { header: '手机号', width: 14 },
        { header: '会员卡', width: 18 },
        { header: '余额', width: 12 },
        { header: '到期日期', width: 12 },
        { header: '提醒原因', width: 20 },
      ],
      rows.map((r) => [
        r.member.name,
        r.member.mobile,
        r.card.cardName,
        amountText(r.card.bigType, r.balance),
        expiryText(r),
        reasonText(r),
      ]),
    );
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'flex-end', marginBottom: 8 }}>
        <Button icon={<DownloadOutlined />} disabled={!rows.length} onClick={exportSheet}>
          导出Excel
        </Button>
      </Space>
      <Form
        layout="inline"
        style={{ marginBottom: 16 }}
        initialValues={{ days: filter.days, minCount: filter.minCount, minMoney: Number(yuan(filter.minMoney ?? 0)) }}
        onFinish={(v: { days: number; minCount: number; minMoney: number }) =>
          setFilter({ days: v.days, minCount: v.minCount, minMoney: toFen(v.minMoney) })
        }
      >
        <Form.Item label="到期提醒" name="days" rules={[{ required: true, message: '请填写到期天数（0-365）' }]}>
          <InputNumber min={0} max={365} precision={0} addonAfter="天内" style={{ width: 140 }} />
        </Form.Item>
        <Form.Item
          label="次卡剩余不超过"
          name="minCount"
          rules={[{ required: true, message: '请填写剩余次数（0-1000）' }]}
        >
          <InputNumber min={0} max={1000} precision={0} addonAfter="次" style={{ width: 120 }} />
        </Form.Item>
        <Form.Item label="储值卡余额低于" name="minMoney" rules={[{ required: true, message: '请填写余额（元）' }]}>
          <InputNumber min={0} max={100_000_000} precision={2} addonAfter="元" style={{ width: 150 }} />
        </Form.Item>
        <Form.Item label="会员">
          <Input.Search
            allowClear
            placeholder="姓名或手机号"
            style={{ width: 180 }}
            onSearch={(v) => setSearch(v.trim())}
            data-testid="alert-search"
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<AlertRow>
        rowKey={(r) => r.card.id}
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 20, showSizeChanger: false, showTotal: (n) => `共 ${n} 张卡` }}
        locale={{ emptyText: '没有需要提醒的会员卡' }}
        columns={[
          {
            title: '会员',
            render: (_, r) => <Link to={`/member/detail?member_id=${r.member.id}`}>{r.member.name}</Link>,
          },
          { title: '手机号', render: (_, r) => r.member.mobile },
          { title: '会员卡', render: (_, r) => r.card.cardName },
          { title: '余额', render: (_, r) => amountText(r.card.bigType, r.balance) },
          { title: '到期日期', render: (_, r) => expiryText(r) },
          {
            title: '提醒原因',
            render: (_, r) =>
              r.reasons.map((x) => (
                <Tag key={x} color={REASONS[x].color}>
                  {REASONS[x].label}
                </Tag>
              )),
          },
        ]}
      />
      {canSetDigest && <DigestSetting filter={filter} />}
    </>
  );
}

/** 会员卡提醒: cards to look after, and members who have not come for a while. */
export default function CardAlertsPage() {
  return (
    <Card title="会员提醒">
      <Tabs
        items={[
          { key: 'cards', label: '会员卡提醒', children: <CardAlerts /> },
          { key: 'inactive', label: '久未到店', children: <InactiveMembers /> },
        ]}
      />
    </Card>
  );
}
