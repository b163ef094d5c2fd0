import { Card, DatePicker, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { useRole } from '../../shared/profile.ts';
import { useSearchParams } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import CommissionTab from './commission-tab.tsx';
import RulesTab from './rules-tab.tsx';
import StatementTab from './statement-tab.tsx';

const TABS = ['statement', 'rules', 'commission'] as const;
type Tab = (typeof TABS)[number];

/**
 * /staff/pay (员工 → 课时费): a month's teacher pay statement, the pay rules and the sales
 * commission for a manager (?tab=rules|commission&month=YYYY-MM); a teacher account sees its own
 * statement only.
 */
export default function TeacherPayPage() {
  const manager = useRole() === 'manager';
  const clock = useStoreClock();
  const [params, setParams] = useSearchParams();
  // Settling is done after a month ends: the month just ended by default.
  const [fallback] = useState(() => clock.day().subtract(1, 'month').format('YYYY-MM'));
  const asked = params.get('month');
  const month = asked && /^\d{4}-\d{2}$/.test(asked) ? asked : fallback;
  const tab: Tab = manager && TABS.includes(params.get('tab') as Tab) ? (params.get('tab') as Tab) : 'statement';
  const go = (next: { month?: string; tab?: Tab }) => {
    const t = next.tab ?? tab;
    setParams({ ...(t === 'statement' ? {} : { tab: t }), month: next.month ?? month });
  };
  const picker = (
    <Space>
      <Typography.Text>月份</Typography.Text>
      <span data-testid="pay-month">
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(d) => d && go({ month: d.format('YYYY-MM') })}
          aria-label="月份"
        />
      </span>
    </Space>
  );
  if (!manager) {
    return (
      <Card title="我的课时费" extra={picker}>
        <StatementTab month={month} manager={false} />
      </Card>
    );
  }
  return (
    // The month picker stands in the card's head, outside the tab list (a tablist holds tabs only).
    <Card title="课时费与销售提成" extra={picker} styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => go({ tab: k as Tab })}
        items={[
          { key: 'statement', label: '课时费月结', children: <StatementTab month={month} manager /> },
          { key: 'rules', label: '课时费规则', children: <RulesTab /> },
          { key: 'commission', label: '销售提成', children: <CommissionTab month={month} /> },
        ]}
      />
    </Card>
  );
}
