import { memberCardsForCourse, Msg } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Typography } from 'antd';
import { call } from '../../../api/client.ts';
import { balanceText } from '../lib/format.ts';

export type CourseCard = Awaited<ReturnType<typeof fetchCards>>[number];

const fetchCards = (mid: number, courseId: number) => call(memberCardsForCourse, { mid, courseId });

export function useMemberCards(mid: number | undefined, courseId: number | undefined) {
  return useQuery({
    queryKey: ['member', mid, 'cards-for', courseId],
    queryFn: () => fetchCards(mid!, courseId!),
    enabled: !!mid && !!courseId,
  });
}

interface Props {
  mid?: number;
  courseId?: number;
  value?: number;
  onChange?: (v: number | undefined) => void;
  disabled?: boolean;
  id?: string;
}

/** The member's cards for a course; unusable ones are listed disabled with the reason. */
export function CardPicker({ mid, courseId, value, onChange, disabled, id }: Props) {
  const q = useMemberCards(mid, courseId);
  const cards = q.data ?? [];
  const usable = cards.filter((c) => c.usable);
  return (
    <>
      <Select
        id={id}
        data-testid="card-picker"
        placeholder={mid ? '选择会员卡' : '请先选择会员'}
        disabled={disabled || !mid}
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
      {mid && q.isSuccess && usable.length === 0 && (
        <Typography.Text type="warning" style={{ fontSize: 12 }}>
          {Msg.cardHelp}
        </Typography.Text>
      )}
    </>
  );
}
