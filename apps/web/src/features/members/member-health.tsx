import { queryHealthFlags, queryMemberHealth } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Popover, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client.ts';
import { useCan } from '../../shared/profile.ts';
import { keys } from '../../shared/query-keys.ts';
import { onSession } from '../../api/wire.ts';

/**
 * 健康声明 for the staff: the members of a session marked 健康提示 (some answer yes), and a member's
 * answers, which the server gives only to the manager and the member's teachers, and only when the
 * member allowed it (the desk sees the mark).
 */
export function useSessionHealthFlags(sessionId: number) {
  const can = useCan(queryHealthFlags);
  const q = useQuery({
    queryKey: keys.sessions.health(sessionId),
    queryFn: () => call(queryHealthFlags, onSession(sessionId)),
    enabled: can,
  });
  return new Set(q.data ?? []);
}

function useMemberHealth(memberId: number, enabled = true) {
  return useQuery({
    queryKey: keys.member.health(memberId),
    queryFn: () => call(queryMemberHealth, { mid: memberId }),
    enabled,
  });
}

/** The answers (or why they are not shown), for a popover or the member's page. */
function HealthDetails({ memberId }: { memberId: number }) {
  const q = useMemberHealth(memberId);
  const h = q.data;
  if (q.error) return <Typography.Text type="secondary">{q.error.message}</Typography.Text>;
  if (!h) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (!h.answeredAt) return <Typography.Text type="secondary">会员还没有填写健康声明</Typography.Text>;
  return (
    <div data-testid="member-health" style={{ maxWidth: 420 }}>
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        {h.flagged ? <Tag color="orange">健康提示</Tag> : <Tag color="green">无健康提示</Tag>}
        填写于 {h.answeredAt.slice(0, 10)}
        {h.due ? '（已过期或问题有更新，待会员重新填写）' : ''}
      </Typography.Paragraph>
      {h.details ? (
        <Descriptions size="small" column={1} bordered>
          {h.details.answers.map((a) => (
            <Descriptions.Item key={a.question} label={a.question}>
              {a.yes ? <Typography.Text strong>是</Typography.Text> : '否'}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label="补充说明">{h.details.note || '无'}</Descriptions.Item>
        </Descriptions>
      ) : h.flagged ? (
        <Typography.Text type="secondary">
          {h.shared ? '具体回答只给店长和会员的上课老师看。' : '会员未允许查看具体回答，'}
          上课时请留意，必要时当面询问会员。
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** The mark next to a member's name in the session drawer: 健康提示, the answers on a click. */
export function HealthMark({ memberId }: { memberId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="left"
      title="健康声明"
      content={open ? <HealthDetails memberId={memberId} /> : null}
    >
      <Tag
        color="orange"
        role="button"
        tabIndex={0}
        data-testid="health-mark"
        style={{ cursor: 'pointer', marginLeft: 4 }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') setOpen(true);
        }}
      >
        健康提示
      </Tag>
    </Popover>
  );
}

/** The member's page: their declaration as the staff member's role may see it. */
export function MemberHealth({ memberId }: { memberId: number }) {
  return <HealthDetails memberId={memberId} />;
}
