import { LEAD_TRIAL_STATUS, markLeadTrial, type SessionTrial } from '@studio/contract';
import { Button, Table, Tag } from 'antd';
import { useCan } from '../../../shared/profile.ts';
import { useMarkTrial, useSessionTrials } from '../hooks/session.ts';

/**
 * The leads booked into the class for a trial (体验课, no card): marked 体验 with the lead's name,
 * 到店 as for members once the class is today or has started. Nothing shown when there are none.
 */
export function TrialRows({ sessionId, canMarkNow }: { sessionId: number; canMarkNow: boolean }) {
  const q = useSessionTrials(sessionId);
  const mark = useMarkTrial(sessionId);
  const canMark = useCan(markLeadTrial) && canMarkNow;
  const rows = q.data ?? [];
  if (!rows.length) return null;
  return (
    <Table<SessionTrial>
      data-testid="trial-table"
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={rows}
      title={() => `体验课学员（${rows.length}）`}
      columns={[
        {
          title: '潜客',
          dataIndex: 'leadName',
          render: (v: string, r) => (
            <>
              <Tag color="purple">体验</Tag>
              {v}
              <div style={{ color: '#6b6b6b', fontSize: 12 }}>{r.mobile}</div>
            </>
          ),
        },
        { title: '跟进人', dataIndex: 'ownerName', render: (v: string | null) => v ?? '公海' },
        {
          title: '状态',
          key: 'status',
          render: (_, r) =>
            r.status === LEAD_TRIAL_STATUS.ATTENDED ? (
              <Tag color="green" title={r.attendedTime ? `到店 ${r.attendedTime.slice(11, 16)}` : undefined}>
                已到店
              </Tag>
            ) : (
              <Tag color="blue">已预约</Tag>
            ),
        },
        ...(canMark
          ? [
              {
                title: '操作',
                key: 'op',
                render: (_: unknown, r: SessionTrial) =>
                  r.status === LEAD_TRIAL_STATUS.BOOKED && (
                    <Button type="link" size="small" loading={mark.loading} onClick={() => void mark.run(r.id)}>
                      到店
                    </Button>
                  ),
              },
            ]
          : []),
      ]}
    />
  );
}
