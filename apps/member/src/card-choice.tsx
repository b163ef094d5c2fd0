import { amountText, type memberCardsForSession, type ResOf } from '@studio/contract';
import { DotLoading } from 'antd-mobile';

/** My cards for a class or a lesson, each usable or why not (as the server answers them). */
export type CardsFor = ResOf<typeof memberCardsForSession>;

/**
 * 选择会员卡: my cards for a class or a lesson, the chosen one marked, the unusable ones disabled with
 * why; none at all sends the member to the desk.
 */
export function CardChoice({
  cards,
  chosen,
  onChoose,
}: {
  cards: CardsFor | undefined;
  chosen: number | null;
  onChoose: (mcId: number) => void;
}) {
  return (
    <>
      <div className="section">选择会员卡</div>
      {!cards && <DotLoading color="primary" />}
      {cards?.length === 0 && <div className="hint">你还没有会员卡，请到前台办理</div>}
      {cards?.map((c) => (
        <button
          key={c.id}
          className={c.id === chosen ? 'card-option chosen' : 'card-option'}
          disabled={!c.usable}
          onClick={() => onChoose(c.id)}
          data-testid={`card-${c.id}`}
        >
          <div>
            {c.cardName}
            {c.sharedBy ? `（${c.sharedBy}共享）` : ''}，余 {amountText(c.bigType, c.balance)}
          </div>
          {!c.usable && <div className="why">{c.reason}</div>}
        </button>
      ))}
    </>
  );
}
