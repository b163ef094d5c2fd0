import type { RosterEntry } from '@studio/contract';

export const STATE_TEXT: Record<RosterEntry['state'], string> = {
  booked: '已预约',
  attended: '已到店',
  signed: '已签到',
  waiting: '待签到',
};
export const STATE_COLOR: Record<RosterEntry['state'], string> = {
  booked: 'blue',
  attended: 'green',
  signed: 'green',
  waiting: 'orange',
};
