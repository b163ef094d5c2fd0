import { memberCardsForCourse, Msg, type MemberCardRow } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Select, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client.ts';
import { balanceText } from '../format.ts';
import { keys } from '../query-keys.ts';
import { useTopUp } from '../top-up.ts';

/** A member's cards for a course, each usable or with the reason it is not. */
export function useCardsForCourse(memberId: number | undefined, courseId: number | undefined) {
  return useQuery({
    queryKey: keys.member.cardsForCourse(memberId, courseId),
    queryFn: () => call(memberCardsForCourse, { mid: memberId!, courseId: courseId! }),
    enabled: !!memberId && !!courseId,
  });
}

interface Props {
  memberId?: number;
  courseId?: number;
  value?: number;
  onChange?: (v: number | undefined) => void;
  disabled?: boolean;
  id?: string;
}

/** A card refused for its balance (余额不足, or what its pendings will take): a top-up makes it usable. */
const short = (c: { usable: boolean; reason?: string }) => !c.usable && !!c.reason?.startsWith(Msg.cardBalance);

/**
 * The member's cards for a course; unusable ones are listed disabled with their balance and the
 * reason, and one short of balance is offered a 充值 (the card's top-up) below the list.
 */
export function CardPicker({ memberId, courseId, value, onChange, disabled, id }: Props) {
  const q = useCardsForCourse(memberId, courseId);
  const TopUp = useTopUp();
  const [topping, setTopping] = useState<MemberCardRow | null>(null);
  const cards = q.data ?? [];
  const usable = cards.filter((c) => c.usable);
  return (
    <>
      <Select
        id={id}
        // named for screen readers also where no form label is linked to it (a list's rows)
        aria-label="会员卡"
        data-testid="card-picker"
        placeholder={memberId ? '选择会员卡' : '请先选择会员'}
        disabled={disabled || !memberId}
        loading={q.isFetching}
        value={value}
        onChange={onChange}
        allowClear
        options={cards.map((c) => {
          // A card shared with the member (多人共享) names its holder.
          const name = c.holder ? `${c.cardName}·${c.holder}共享` : c.cardName;
          return {
            value: c.id,
            disabled: !c.usable,
            label: c.usable
              ? `${name}（余额 ${balanceText(c)}）`
              : `${name}（余额 ${balanceText(c)}，${c.reason ?? '不可用'}）`,
          };
        })}
      />
      {!disabled &&
        cards.filter(short).map((c) => (
          <div key={c.id} data-testid={`card-short-${c.id}`} style={{ fontSize: 12, marginTop: 4 }}>
            <Typography.Text type="secondary">
              {c.cardName} 余额 {balanceText(c)}，{c.reason}
            </Typography.Text>
            {TopUp && (
              <Button type="link" size="small" onClick={() => setTopping(c)} data-testid="card-top-up">
                充值
              </Button>
            )}
          </div>
        ))}
      {memberId && q.isSuccess && usable.length === 0 && (
        <Typography.Text type="warning" style={{ fontSize: 12 }}>
          {Msg.cardHelp}
        </Typography.Text>
      )}
      {/* Rendered here, inside the form that shows the card, so it opens above it. */}
      {TopUp && topping && <TopUp card={topping} onClose={() => setTopping(null)} />}
    </>
  );
}
