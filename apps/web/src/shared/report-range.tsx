import { REPORT_MAX_DAYS, ReportMsg } from '@studio/contract';
import { App, DatePicker } from 'antd';
import dayjs from './dayjs.ts';

export interface DateRange {
  fromDate: string;
  toDate: string;
}

/**
 * The dates of a report (数据报表, 转化漏斗): both ends required, at most REPORT_MAX_DAYS days (the
 * server refuses a longer range with the same message).
 */
export function ReportRangePicker({ value, onChange }: { value: DateRange; onChange: (r: DateRange) => void }) {
  const { message } = App.useApp();
  return (
    <DatePicker.RangePicker
      allowClear={false}
      value={[dayjs(value.fromDate), dayjs(value.toDate)]}
      onChange={(v) => {
        if (!v?.[0] || !v[1]) return;
        if (v[1].diff(v[0], 'day') + 1 > REPORT_MAX_DAYS) return void message.error(ReportMsg.rangeMax);
        onChange({ fromDate: v[0].format('YYYY-MM-DD'), toDate: v[1].format('YYYY-MM-DD') });
      }}
    />
  );
}
