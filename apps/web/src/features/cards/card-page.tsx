import { Card, Tabs } from 'antd';
import { useSearchParams } from '../../shared/router.tsx';
import MemberCardTab from './member-card-tab.tsx';
import ProductTab from './product-tab.tsx';

/** /card/list: card products (卡种) and the cards members hold (会员卡, ?tab=member&member_id=ID). */
export default function CardPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'member' ? 'member' : 'product';
  return (
    <Card styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(k === 'member' ? { tab: 'member' } : {})}
        items={[
          { key: 'product', label: '卡种', children: <ProductTab /> },
          { key: 'member', label: '会员卡', children: <MemberCardTab /> },
        ]}
      />
    </Card>
  );
}
