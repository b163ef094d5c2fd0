import { Button } from 'antd-mobile';
import { LeftOutline } from 'antd-mobile-icons';
import './payment.css';

/** A screen inside 会员卡 (购卡, 我的订单): its name and the way back to my cards. */
export function SubHead({ title, onBack }: { title: string; onBack: () => void }) {
  return (
    <div className="sub-head">
      <Button className="touch" fill="none" onClick={onBack} aria-label="返回我的会员卡">
        <LeftOutline /> 返回
      </Button>
      <h2>{title}</h2>
    </div>
  );
}
