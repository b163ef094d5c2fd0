import type { inactiveMemberList, ResOf } from '@studio/contract';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, InputNumber, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { Link } from '../../shared/router.tsx';
import { downloadSheet } from '../../shared/xlsx.ts';
import { useInactiveMembers } from './hooks.ts';

type Row = ResOf<typeof inactiveMemberList>[number];
const lastVisitText = (r: Row) => (r.lastVisit ? r.lastVisit.slice(0, 10) : '从未上课');

/** 久未到店: members who have not come for N days (or never came), to call back. */
export function InactiveMembers() {
  const [days, setDays] = useState(30);
  const q = useInactiveMembers(days);
  const rows = q.data ?? [];
  const exportSheet = () =>
    downloadSheet(
      `久未到店会员（${days}天）`,
      '久未到店会员',
      [
        { header: '会员', width: 12 },
        { header: '手机号', width: 14 },
        { header: '最近上课', width: 12 },
        { header: '有效会员卡', width: 10 },
      ],
      rows.map((r) => [r.member.name, r.member.mobile, lastVisitText(r), r.liveCards]),
    );
  return (
    <>
      <Space style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space>
          <span>超过</span>
          <InputNumber
            min={1}
            max={365}
            precision={0}
            value={days}
            onChange={(v) => v && setDays(v)}
            addonAfter="天"
            style={{ width: 120 }}
            data-testid="inactive-days"
          />
          <span>没有上课的会员</span>
          <Typography.Text type="secondary">（入会满这么多天的才算）</Typography.Text>
        </Space>
        <Button icon={<DownloadOutlined />} disabled={!rows.length} onClick={exportSheet}>
          导出Excel
        </Button>
      </Space>
      <Table<Row>
        rowKey={(r) => r.member.id}
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 20, showSizeChanger: false, showTotal: (n) => `共 ${n} 位会员` }}
        locale={{ emptyText: '没有久未到店的会员' }}
        columns={[
          {
            title: '会员',
            render: (_, r) => <Link to={`/member/detail?member_id=${r.member.id}`}>{r.member.name}</Link>,
          },
          { title: '手机号', render: (_, r) => r.member.mobile },
          { title: '最近上课', render: (_, r) => lastVisitText(r) },
          { title: '有效会员卡', render: (_, r) => `${r.liveCards} 张` },
        ]}
      />
    </>
  );
}
