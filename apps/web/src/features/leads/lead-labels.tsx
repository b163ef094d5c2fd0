import { LEAD_STAGE_LABEL, type LeadRow, type LeadStage } from '@studio/contract';
import { Tag } from 'antd';

const STAGE_COLOR: Record<LeadStage, string> = {
  new: 'blue',
  contacted: 'cyan',
  trial_booked: 'gold',
  trial_done: 'orange',
  won: 'green',
  lost: 'default',
};

/** A lead's stage as a tag (新线索 … 已成交, 已流失). */
export function StageTag({ stage }: { stage: LeadStage }) {
  return <Tag color={STAGE_COLOR[stage]}>{LEAD_STAGE_LABEL[stage]}</Tag>;
}

/** When a follow-up is due, as 我的待跟进 says it. */
export const DUE_LABEL = { overdue: '已逾期', today: '今天', later: '以后', none: '未定' } as const;
export const DUE_COLOR = { overdue: 'red', today: 'orange', later: 'default', none: 'default' } as const;

/** A lead's source, with the member who referred them (转介绍 through a member's link). */
export function SourceText({ lead }: { lead: Pick<LeadRow, 'source' | 'referrerName'> }) {
  return (
    <>
      {lead.source}
      {lead.referrerName && `（推荐人：${lead.referrerName}）`}
    </>
  );
}
