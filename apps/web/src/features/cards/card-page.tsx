import { updateCardLifeSetting, updatePrepaidLimitSetting } from '@studio/contract';
import { Card, Spin, Tabs } from 'antd';
import { lazy, Suspense } from 'react';
import { useCan } from '../../shared/profile.ts';
import { useSearchParams } from '../../shared/router.tsx';
import CardLifeSettingForm from './card-life-setting.tsx';
import { LeaveTable } from './leave-table.tsx';
import MemberCardTab from './member-card-tab.tsx';
import ProductTab from './product-tab.tsx';

const TABS = ['product', 'member', 'leave', 'setting', 'limits'] as const;

// The manager's 预付卡限额 (its form and report) is loaded when opened.
const PrepaidLimitsTab = lazy(() => import('./prepaid-limits-tab.tsx'));

/**
 * /card/list: card products (卡种), the cards members hold (会员卡, ?tab=member&member_id=ID), members'
 * leave requests waiting for the desk (请假审批, ?tab=leave), the manager's 退卡与请假设置 (?tab=setting)
 * and 预付卡限额 (?tab=limits).
 */
export default function CardPage() {
  const [params, setParams] = useSearchParams();
  const canSet = useCan(updateCardLifeSetting);
  const canLimit = useCan(updatePrepaidLimitSetting);
  const asked = TABS.find((t) => t === params.get('tab')) ?? 'product';
  const tab = (asked === 'setting' && !canSet) || (asked === 'limits' && !canLimit) ? 'product' : asked;
  return (
    <Card styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(k === 'product' ? {} : { tab: k })}
        items={[
          { key: 'product', label: '卡种', children: <ProductTab /> },
          { key: 'member', label: '会员卡', children: <MemberCardTab /> },
          { key: 'leave', label: '请假审批', children: <LeaveTable status="pending" /> },
          ...(canSet ? [{ key: 'setting', label: '退卡与请假设置', children: <CardLifeSettingForm /> }] : []),
          ...(canLimit
            ? [
                {
                  key: 'limits',
                  label: '预付卡限额',
                  children: (
                    <Suspense fallback={<Spin />}>
                      <PrepaidLimitsTab />
                    </Suspense>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
