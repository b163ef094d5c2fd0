import { OnlineSaleMsg } from '@studio/contract';
import { Button, DotLoading, Tag } from 'antd-mobile';
import { yuanText, type Shop } from './payment.ts';
import './payment.css';
import { SubHead } from './sub-head.tsx';

/** 购卡: the cards the store sells online, each with its price, what it holds and 购买. */
export function ShopList({
  shop,
  onBack,
  onBuy,
}: {
  shop: Shop | undefined;
  onBack: () => void;
  onBuy: (p: Shop['list'][number]) => void;
}) {
  return (
    <>
      <SubHead title="购卡" onBack={onBack} />
      <div className="cards">
        {!shop && (
          <div className="empty">
            <DotLoading color="primary" />
          </div>
        )}
        {shop && shop.list.length === 0 && <div className="empty">{OnlineSaleMsg.closed}</div>}
        {shop?.list.map((p) => (
          <div key={p.id} className="product" data-testid="product">
            <div className="top">
              <span>
                {p.name}
                {p.trial === 1 && (
                  <Tag color="primary" fill="outline" className="fresh-tag">
                    体验卡 · 限购一次
                  </Tag>
                )}
              </span>
              <span className="price">{yuanText(p.price)}</span>
            </div>
            <div className="meta">包含：{p.summary}</div>
            <div className="ops">
              <Button className="touch" color="primary" onClick={() => onBuy(p)}>
                购买
              </Button>
            </div>
          </div>
        ))}
        <div className="hint" style={{ padding: '0 4px' }}>
          购买后会员卡立即到账，可在“会员卡”中查看，预约时使用。
        </div>
      </div>
    </>
  );
}
