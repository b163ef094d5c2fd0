import {
  REFERRAL_KIND_LABEL,
  REFERRAL_KINDS,
  REFERRAL_MAX,
  REFERRAL_STATUS_LABEL,
  REFERRAL_STATUSES,
  REFERRAL_TRIGGER_LABEL,
  REFERRAL_TRIGGERS,
  ReferralMsg,
  referralAmountText,
  type ReferralKind,
  type ReferralReward,
  type ReferralSetting,
  type ReferralStatus,
} from '@studio/contract';
import { Button, Card, Form, InputNumber, Popconfirm, Radio, Select, Space, Spin, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from '../../shared/router.tsx';
import {
  useGrantReferralReward,
  useReferralRewards,
  useReferralSetting,
  useSaveReferralSetting,
  useUndoReferralReward,
} from './hooks.ts';

const STATUS_COLOR: Record<ReferralStatus, string> = { pending: 'gold', granted: 'green', undone: 'default' };
/** The unit the amount is typed in: classes, days, or yuan (sent as fen). */
const UNIT: Record<ReferralKind, string> = { lessons: '次', days: '天', money: '元' };

type SettingForm = Omit<ReferralSetting, 'amount'> & { amount: number };

/** 转介绍奖励设置: on or off, when (the friend's first class or first card), and what the referrer gets. */
function ReferralSettingCard() {
  const q = useReferralSetting();
  const save = useSaveReferralSetting();
  const [form] = Form.useForm<SettingForm>();
  const kind = Form.useWatch('kind', form) ?? q.data?.kind ?? 'lessons';
  if (!q.data) return <Spin />;
  const shown = (s: ReferralSetting) => ({ ...s, amount: s.kind === 'money' ? s.amount / 100 : s.amount });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const amount = v.kind === 'money' ? Math.round(v.amount * 100) : v.amount;
    await save.run({ enabled: v.enabled, trigger: v.trigger, kind: v.kind, amount });
  };
  const max = (k: ReferralKind) => (k === 'money' ? REFERRAL_MAX.money / 100 : REFERRAL_MAX[k]);
  return (
    <Card title="转介绍奖励设置" size="small" data-testid="referral-setting">
      <Form<SettingForm> form={form} layout="vertical" initialValues={shown(q.data)} style={{ maxWidth: 520 }}>
        <Form.Item name="enabled" label="开启转介绍奖励" valuePropName="checked">
          <Switch checkedChildren="开" unCheckedChildren="关" />
        </Form.Item>
        <Form.Item
          name="trigger"
          label="什么时候发放"
          rules={[{ required: true, message: ReferralMsg.trigger }]}
          extra="每位被推荐的好友只发一次；推荐自己、已是会员或已被推荐过的手机号不发"
        >
          <Radio.Group options={REFERRAL_TRIGGERS.map((t) => ({ value: t, label: REFERRAL_TRIGGER_LABEL[t] }))} />
        </Form.Item>
        <Form.Item name="kind" label="奖励方式" rules={[{ required: true, message: ReferralMsg.kind }]}>
          <Select
            style={{ width: 200 }}
            options={REFERRAL_KINDS.map((k) => ({ value: k, label: REFERRAL_KIND_LABEL[k] }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label="奖励数量"
          extra="加在推荐人对应类型、有效期最长的会员卡上；没有对应的卡时先记为待发放"
          rules={[
            { required: true, message: ReferralMsg.amount },
            {
              validator: async (_, v: number | null) => {
                if (v == null) return;
                if (kind !== 'money' ? !Number.isInteger(v) || v < 1 : v < 0.01) throw new Error(ReferralMsg.amount);
                if (v > max(kind)) throw new Error(ReferralMsg.amountMax(kind));
              },
            },
          ]}
        >
          <InputNumber aria-label="奖励数量" precision={kind === 'money' ? 2 : 0} addonAfter={UNIT[kind]} />
        </Form.Item>
        <Button type="primary" loading={save.loading} onClick={() => void submit()}>
          保存设置
        </Button>
      </Form>
    </Card>
  );
}

/** /lead/referral: 转介绍奖励 (店长) — the setting, and every reward with its state, 发放 and 撤销. */
export default function ReferralPage() {
  const [status, setStatus] = useState<ReferralStatus | null>(null);
  const [page, setPage] = useState(1);
  const q = useReferralRewards({ status, page });
  const grant = useGrantReferralReward();
  const undo = useUndoReferralReward();
  const columns = [
    {
      title: '推荐人',
      key: 'referrer',
      render: (_: unknown, r: ReferralReward) => (
        <Link to={`/member/detail?member_id=${r.referrerId}`}>{r.referrerName}</Link>
      ),
    },
    {
      title: '好友',
      key: 'friend',
      render: (_: unknown, r: ReferralReward) => `${r.friendName}（${r.friendMobile}）`,
    },
    { title: '发放时机', key: 'trigger', render: (_: unknown, r: ReferralReward) => REFERRAL_TRIGGER_LABEL[r.trigger] },
    {
      title: '奖励',
      key: 'reward',
      render: (_: unknown, r: ReferralReward) =>
        `${REFERRAL_KIND_LABEL[r.kind]} ${referralAmountText(r.kind, r.amount)}${r.cardName ? `（${r.cardName}）` : ''}`,
    },
    {
      title: '状态',
      key: 'status',
      render: (_: unknown, r: ReferralReward) => (
        <Tag color={STATUS_COLOR[r.status]}>{REFERRAL_STATUS_LABEL[r.status]}</Tag>
      ),
    },
    {
      title: '时间',
      key: 'time',
      render: (_: unknown, r: ReferralReward) => (r.undoneAt ?? r.grantedAt ?? r.createdAt).slice(0, 16),
    },
    {
      title: '操作',
      key: 'op',
      render: (_: unknown, r: ReferralReward) => (
        <Space>
          {r.status === 'pending' && (
            <Button size="small" loading={grant.loading} onClick={() => void grant.run(r.id)}>
              发放
            </Button>
          )}
          {r.status === 'granted' && (
            <Popconfirm
              title="撤销这笔奖励？"
              description="将从推荐人的卡上扣回奖励，并记一条冲正流水"
              okText="撤销奖励"
              cancelText="再想想"
              onConfirm={() => undo.run(r.id)}
            >
              <Button size="small" danger>
                撤销奖励
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <ReferralSettingCard />
      <Card
        title="转介绍奖励记录"
        size="small"
        extra={
          <Select<ReferralStatus | 'all'>
            aria-label="按状态筛选"
            style={{ width: 220 }}
            value={status ?? 'all'}
            onChange={(v) => {
              setStatus(v === 'all' ? null : v);
              setPage(1);
            }}
            options={[
              { value: 'all', label: '全部状态' },
              ...REFERRAL_STATUSES.map((s) => ({ value: s, label: REFERRAL_STATUS_LABEL[s] })),
            ]}
          />
        }
      >
        <Table<ReferralReward>
          data-testid="referral-rewards"
          rowKey="id"
          size="small"
          loading={q.isLoading}
          columns={columns}
          dataSource={q.data?.list ?? []}
          pagination={{ current: page, pageSize: 20, total: q.data?.total ?? 0, onChange: setPage }}
          locale={{ emptyText: '还没有转介绍奖励' }}
        />
      </Card>
    </Space>
  );
}
