import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from '../../shared/router.tsx';
import { MemberPicker } from '../../shared/pickers/member-picker.tsx';
import { useMember } from '../../shared/reference.ts';
import IssueCardModal from './issue-card-modal.tsx';
import { MemberCardTable } from './member-card-table.tsx';
import './cards.css';

/** Member cards: choose a member, see their cards, issue a new one, top up, freeze, ledger. */
export default function MemberCardTab() {
  const [params, setParams] = useSearchParams();
  const memberId = Number(params.get('member_id')) || undefined;
  const [issuing, setIssuing] = useState(false);
  const q = useMember(memberId);
  const setMember = (id: number | undefined) =>
    setParams(id ? { tab: 'member', member_id: String(id) } : { tab: 'member' }, { replace: true });
  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space>
          <span>会员：</span>
          <div style={{ width: 300 }} className="card-member-picker" data-testid="card-member">
            <MemberPicker
              value={memberId}
              onChange={(id) => setMember(id)}
              initial={q.data ? { id: q.data.id, name: q.data.name, mobile: q.data.mobile } : undefined}
            />
          </div>
          {q.data && <Link to={`/member/detail?member_id=${q.data.id}`}>会员详情</Link>}
        </Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setIssuing(true)}>
          发卡
        </Button>
      </Space>
      {memberId ? (
        <>
          {q.data && (
            <Typography.Paragraph type="secondary">
              {q.data.name} {q.data.mobile} 共 {q.data.cards.length} 张会员卡
            </Typography.Paragraph>
          )}
          <MemberCardTable cards={q.data?.cards ?? []} loading={q.isFetching} holderId={q.data?.id} />
        </>
      ) : (
        <Empty description="请选择会员查看其会员卡，或点击「发卡」给会员办卡" />
      )}
      {issuing && (
        <IssueCardModal
          memberId={memberId}
          onClose={(issuedTo) => {
            setIssuing(false);
            if (issuedTo) setMember(issuedTo);
          }}
        />
      )}
    </>
  );
}
