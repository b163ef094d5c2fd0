import { Button } from 'antd-mobile';
import { LeftOutline } from 'antd-mobile-icons';
import './payment.css';

/** A screen inside a tab (购卡, 我的订单; 约私教's steps): its name and the way back (to my cards, unless said). */
export function SubHead({
  title,
  onBack,
  backLabel = '返回我的会员卡',
}: {
  title: string;
  onBack: () => void;
  backLabel?: string;
}) {
  return (
    <div className="sub-head">
      <Button className="touch" fill="none" onClick={onBack} aria-label={backLabel}>
        <LeftOutline /> 返回
      </Button>
      <h2>{title}</h2>
    </div>
  );
}
