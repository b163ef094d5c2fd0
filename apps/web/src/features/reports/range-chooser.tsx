import { Segmented, Space } from 'antd';
import { useState } from 'react';
import { ReportRangePicker } from '../../shared/report-range.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import type { Range } from './hooks.ts';
import { presetRange, RANGE_KINDS, type RangeKind } from './range.ts';

/**
 * A report page's range: 本周 / 本月 / 上月 / 自定义 (this month first, on the store's clock) and the
 * dates; the chooser stands in the page card's header.
 */
export function useRangeChooser() {
  const [kind, setKind] = useState<RangeKind>('month');
  const clock = useStoreClock();
  const [range, setRange] = useState<Range>(() => presetRange('month', clock.day()));
  const choose = (k: RangeKind) => {
    setKind(k);
    if (k !== 'custom') setRange(presetRange(k, clock.day()));
  };
  const chooser = (
    <Space wrap>
      <Segmented<RangeKind> options={RANGE_KINDS} value={kind} onChange={choose} data-testid="report-range-kind" />
      <span data-testid="report-range">
        <ReportRangePicker
          value={range}
          onChange={(r) => {
            setKind('custom');
            setRange(r);
          }}
        />
      </span>
    </Space>
  );
  return { range, chooser };
}
