import {
  amountText,
  BIG_TYPE_MONEY,
  NO_PREPAID_LIMITS,
  PREPAID_CARD_KINDS,
  PREPAID_RULE_SET_NAMES,
  PREPAID_RULE_SETS,
  queryCardsOverPrepaidLimit,
  queryPrepaidLimitSetting,
  SHANGHAI_2025_LIMITS,
  updatePrepaidLimitSetting,
  type CardOverLimit,
  type PrepaidLimits,
  type PrepaidRuleSet,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, InputNumber, Radio, Spin, Table, Typography } from 'antd';
import { useEffect } from 'react';
import { call } from '../../api/client.ts';
import { toFen } from '../../shared/format.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** The form's values: amounts in 元 (null: no limit). */
interface Values {
  ruleSet: PrepaidRuleSet;
  membershipAmount: number | null;
  membershipMonths: number | null;
  lessonsAmount: number | null;
  lessonsCount: number | null;
  moneyAmount: number | null;
  perMemberAmount: number | null;
}

const AMOUNTS = ['membershipAmount', 'lessonsAmount', 'moneyAmount', 'perMemberAmount'] as const;
const toYuan = (fen: number | null) => (fen === null ? null : fen / 100);
const limitYuan = (fen: number | null) => (fen === null ? '不限' : amountText(BIG_TYPE_MONEY, fen));

function limitRows(l: PrepaidLimits) {
  return [
    {
      label: PREPAID_CARD_KINDS.membership,
      value: `单卡 ${limitYuan(l.membershipAmount)}，有效期 ${l.membershipMonths === null ? '不限' : `${l.membershipMonths} 个月`}`,
    },
    {
      label: PREPAID_CARD_KINDS.lessons,
      value: `单卡 ${limitYuan(l.lessonsAmount)}，课时 ${l.lessonsCount === null ? '不限' : `${l.lessonsCount} 节`}`,
    },
    { label: PREPAID_CARD_KINDS.money, value: `单卡 ${limitYuan(l.moneyAmount)}` },
    { label: '每位会员合计', value: `${limitYuan(l.perMemberAmount)}（含已有卡的剩余金额）` },
  ];
}

/**
 * 预付卡限额 (the manager's): the store's rule set (不限制, 上海预付卡新规, or its own limits) that every
 * sale, top-up, online purchase and transfer in is checked against at the server, and the cards sold
 * before the limits that are over them.
 */
export default function PrepaidLimitsTab() {
  const q = useQuery({ queryKey: keys.prepaidLimits, queryFn: () => call(queryPrepaidLimitSetting, {}) });
  const over = useQuery({ queryKey: keys.prepaidOver, queryFn: () => call(queryCardsOverPrepaidLimit, {}) });
  const save = useWrite(
    (v: Values) =>
      call(updatePrepaidLimitSetting, {
        ruleSet: v.ruleSet,
        custom: {
          ...NO_PREPAID_LIMITS,
          membershipMonths: v.membershipMonths ?? null,
          lessonsCount: v.lessonsCount ?? null,
          ...Object.fromEntries(AMOUNTS.map((k) => [k, v[k] === null || v[k] === undefined ? null : toFen(v[k])])),
        },
      }),
    { success: '保存成功', changes: 'storeSetting' },
  );
  const [form] = Form.useForm<Values>();
  const ruleSet = Form.useWatch('ruleSet', form);
  useEffect(() => {
    if (!q.data) return;
    const c = q.data.custom;
    form.setFieldsValue({
      ruleSet: q.data.ruleSet,
      membershipMonths: c.membershipMonths,
      lessonsCount: c.lessonsCount,
      ...Object.fromEntries(AMOUNTS.map((k) => [k, toYuan(c[k])])),
    });
  }, [q.data, form]);
  if (!q.data) return <Spin />;
  const yuanField = (name: (typeof AMOUNTS)[number], label: string) => (
    <Form.Item label={label} name={name} extra="不填为不限制">
      <InputNumber min={0.01} max={100_000_000} precision={2} suffix="元" style={{ width: 200 }} />
    </Form.Item>
  );
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, maxWidth: 760 }}>
      <Form<Values> form={form} layout="vertical" onFinish={(v) => void save.run(v)}>
        <Form.Item label="预付卡限额规则" name="ruleSet" rules={[{ required: true, message: '请选择预付卡限额规则' }]}>
          <Radio.Group
            options={PREPAID_RULE_SETS.map((r) => ({ value: r, label: PREPAID_RULE_SET_NAMES[r] }))}
            optionType="button"
          />
        </Form.Item>
        {ruleSet === 'shanghai2025' && (
          <Descriptions
            size="small"
            column={1}
            bordered
            style={{ marginBottom: 16 }}
            items={limitRows(SHANGHAI_2025_LIMITS).map((r) => ({ key: r.label, label: r.label, children: r.value }))}
          />
        )}
        {ruleSet === 'custom' && (
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: 16 }}>
            {yuanField('membershipAmount', '期限卡单卡金额上限')}
            <Form.Item label="期限卡有效期上限" name="membershipMonths" extra="不填为不限制">
              <InputNumber min={1} max={120} precision={0} suffix="个月" style={{ width: 200 }} />
            </Form.Item>
            {yuanField('lessonsAmount', '次卡单卡金额上限')}
            <Form.Item label="次卡课时数上限" name="lessonsCount" extra="不填为不限制">
              <InputNumber min={1} max={10_000} precision={0} suffix="节" style={{ width: 200 }} />
            </Form.Item>
            {yuanField('moneyAmount', '储值卡单卡金额上限')}
            {yuanField('perMemberAmount', '每位会员预付总额上限')}
          </div>
        )}
        <Typography.Paragraph type="secondary">
          售卡、充值、会员线上购卡与转卡转入都会按所选规则检查，超出时不能办理并提示超出哪一项。期限卡指约课不扣次数的卡，次卡按课时计，储值卡按金额计；每位会员合计包括其已有会员卡按比例剩余的金额。
          {q.data.since && q.data.ruleSet !== 'none' ? ` 当前规则自 ${q.data.since.slice(0, 16)} 起执行。` : ''}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={save.loading}>
          保存
        </Button>
      </Form>
      {over.data && over.data.ruleSet !== 'none' && <OverTable list={over.data.list} />}
    </div>
  );
}

/** The cards sold before the limits that are over them. */
function OverTable({ list }: { list: CardOverLimit[] }) {
  if (!list.length) return <Alert type="success" showIcon message="没有超出现行限额的会员卡" />;
  return (
    <div>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        超出现行限额的会员卡（{list.length}）
      </Typography.Title>
      <Table<CardOverLimit>
        rowKey="mcId"
        size="small"
        dataSource={list}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '会员', dataIndex: 'memberName' },
          { title: '会员卡', dataIndex: 'cardName' },
          { title: '类别', dataIndex: 'kind', render: (k: keyof typeof PREPAID_CARD_KINDS) => PREPAID_CARD_KINDS[k] },
          { title: '售出时间', dataIndex: 'createdAt', render: (t: string) => t.slice(0, 16) },
          { title: '超出', dataIndex: 'over', render: (o: string[]) => o.map((x) => <div key={x}>{x}</div>) },
        ]}
      />
    </div>
  );
}
