import { memberCardsForCourse, Msg } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Typography } from 'antd';
import { call } from '../../api/client.ts';
import { balanceText } from '../format.ts';
import { keys } from '../query-keys.ts';

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

/** The member's cards for a course; unusable ones are listed disabled with the reason. */
export function CardPicker({ memberId, courseId, value, onChange, disabled, id }: Props) {
  const q = useCardsForCourse(memberId, courseId);
  const cards = q.data ?? [];
  const usable = cards.filter((c) => c.usable);
  return (
    <>
      <Select
        id={id}
        data-testid="card-picker"
        placeholder={memberId ? '选择会员卡' : '请先选择会员'}
        disabled={disabled || !memberId}
        loading={q.isFetching}
        value={value}
        onChange={onChange}
        allowClear
        options={cards.map((c) => ({
          value: c.id,
          disabled: !c.usable,
          label: c.usable ? `${c.cardName}（余额 ${balanceText(c)}）` : `${c.cardName}（${c.reason ?? '不可用'}）`,
        }))}
      />
      {memberId && q.isSuccess && usable.length === 0 && (
        <Typography.Text type="warning" style={{ fontSize: 12 }}>
          {Msg.cardHelp}
        </Typography.Text>
      )}
    </>
  );
}
