import { PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Skeleton, Space, Tabs, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from '../../shared/router.tsx';
import { useMember } from '../../shared/reference.ts';
import { Notice } from '../../shared/notice.tsx';
import { IssueCardModal, MemberCardTable, MemberPayments } from '../cards/index.ts';
import { useMemberBookings } from './hooks.ts';
import { MemberBookingTable } from './member-bookings.tsx';
import { MemberNoShows } from './member-no-shows.tsx';
import { MemberHealth } from './member-health.tsx';
import { MemberPhoneAccess } from './member-phone-access.tsx';
import { MemberWaits } from './member-waits.tsx';
import MemberFormModal, { GENDERS } from './member-form-modal.tsx';

// 扫码收款 draws a QR (the qrcode module): loaded when the desk opens it.
const DeskPayModal = lazy(() => import('../payment/index.ts').then((m) => ({ default: m.DeskPayModal })));

/** /member/detail?member_id=ID: the member, their cards with balances, and their upcoming and past bookings. */
export default function MemberDetailPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('member_id')) || 0;
  const q = useMember(id || undefined);
  const [editing, setEditing] = useState(false);
  const [issuing, setIssuing] = useState(false);
  const [paying, setPaying] = useState(false);
  // Asked once the member is known to be of this store (an unknown id shows one message, not three).
  const known = q.data ? id : 0;
  const upcoming = useMemberBookings(known, 'upcoming');
  const past = useMemberBookings(known, 'past');
  if (!id) return <Notice title="请选择会员" />;
  if (q.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const m = q.data;
  if (!m) return <Notice title="会员不存在" />;

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={`会员详情：${m.name}`}
        extra={
          <Button onClick={() => setEditing(true)} data-testid="edit-member">
            编辑
          </Button>
        }
      >
        <Descriptions size="small" column={4} bordered>
          <Descriptions.Item label="姓名">{m.name}</Descriptions.Item>
          <Descriptions.Item label="手机号">{m.mobile}</Descriptions.Item>
          <Descriptions.Item label="性别">
            {GENDERS.find((g) => g.value === m.gender)?.label ?? '未知'}
          </Descriptions.Item>
          <Descriptions.Item label="出生日期">{m.birthday || '-'}</Descriptions.Item>
          <Descriptions.Item label="入会时间">{m.createdAt.slice(0, 10)}</Descriptions.Item>
        </Descriptions>
        <div style={{ marginTop: 12 }}>
          <MemberPhoneAccess memberId={m.id} name={m.name} />
        </div>
      </Card>
      <Card title="健康声明" size="small">
        <MemberHealth memberId={m.id} />
      </Card>
      <Card
        title="会员卡"
        extra={
          <Space>
            <Button icon={<QrcodeOutlined />} onClick={() => setPaying(true)} data-testid="desk-pay">
              扫码收款
            </Button>
            <Button icon={<PlusOutlined />} onClick={() => setIssuing(true)}>
              发卡
            </Button>
          </Space>
        }
      >
        <MemberCardTable cards={m.cards} loading={q.isFetching} holderId={m.id} />
        {m.sharedCards.length > 0 && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} data-testid="shared-cards">
            还可以用别人共享的卡约课：
            {m.sharedCards.map((c, i) => (
              <span key={c.id}>
                {i > 0 && '、'}
                {c.cardName}（
                <Link to={`/member/detail?member_id=${c.holderId}`} style={{ textDecoration: 'underline' }}>
                  {c.holderName}
                </Link>
                的卡）
              </span>
            ))}
          </Typography.Paragraph>
        )}
      </Card>
      <Card title="收款记录">
        <MemberPayments memberId={m.id} />
      </Card>
      <Card title="上课记录">
        <Tabs
          items={[
            {
              key: 'upcoming',
              label: `待上课（${upcoming.q.data?.total ?? 0}）`,
              children: <MemberBookingTable bookings={upcoming} cards={m.cards} testId="upcoming-table" />,
            },
            {
              key: 'waits',
              label: '候补',
              children: <MemberWaits memberId={m.id} />,
            },
            {
              key: 'no-shows',
              label: '爽约与迟到取消',
              children: <MemberNoShows memberId={m.id} />,
            },
            {
              key: 'past',
              label: `已上课（${past.q.data?.total ?? 0}）`,
              children: <MemberBookingTable bookings={past} cards={m.cards} testId="past-table" />,
            },
          ]}
        />
      </Card>
      {editing && <MemberFormModal member={m} onClose={() => setEditing(false)} />}
      {issuing && <IssueCardModal memberId={m.id} onClose={() => setIssuing(false)} />}
      {paying && (
        <Suspense fallback={null}>
          <DeskPayModal member={m} onClose={() => setPaying(false)} />
        </Suspense>
      )}
    </Space>
  );
}
