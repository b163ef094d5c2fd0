import { LinkOutlined } from '@ant-design/icons';
import { Descriptions, Drawer, Empty, List, Skeleton, Tag, Typography } from 'antd';
import { balanceText } from '../../../shared/format.ts';
import { useMember } from '../../../shared/reference.ts';
import { MemberNoShows, MemberPhoneAccess, MemberWaits } from '../../members/index.ts';

const GENDER = ['未知', '男', '女'];

/** A member's details and cards with balances; the full member page opens in a new tab. */
export default function MemberDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const q = useMember(id);
  const m = q.data;
  return (
    <Drawer
      open
      width={480}
      title="会员详情"
      onClose={onClose}
      extra={
        <a href={`/member/detail?member_id=${id}`} target="_blank" rel="noreferrer" data-testid="member-detail-link">
          <LinkOutlined /> 查看会员详情
        </a>
      }
    >
      {q.isPending ? (
        <Skeleton active />
      ) : !m ? (
        <Empty description="会员不存在" />
      ) : (
        <>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label="姓名">{m.name}</Descriptions.Item>
            <Descriptions.Item label="手机号">{m.mobile}</Descriptions.Item>
            <Descriptions.Item label="性别">{GENDER[m.gender] ?? '未知'}</Descriptions.Item>
            <Descriptions.Item label="生日">{m.birthday || '-'}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            手机约课
          </Typography.Title>
          <MemberPhoneAccess memberId={m.id} name={m.name} />
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            会员卡
          </Typography.Title>
          <List
            data-testid="member-cards"
            size="small"
            bordered
            locale={{ emptyText: '暂无会员卡' }}
            dataSource={m.cards}
            renderItem={(c) => (
              <List.Item data-card-id={c.id}>
                <List.Item.Meta
                  title={
                    <>
                      {c.cardName} {c.frozen ? <Tag color="blue">已冻结</Tag> : null}
                    </>
                  }
                  description={c.cardType === 2 ? '永久有效' : `有效期至 ${c.expireTime ?? '-'}`}
                />
                <span className="card-balance">余额 {balanceText(c)}</span>
              </List.Item>
            )}
          />
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            候补
          </Typography.Title>
          <MemberWaits memberId={m.id} compact />
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            爽约与迟到取消
          </Typography.Title>
          <MemberNoShows memberId={m.id} compact />
        </>
      )}
    </Drawer>
  );
}
