import { DEFAULT_TIME_ZONE } from '@studio/contract/store-time';

/** IANA time zones offered in the pickers (the browser's list, or a short fallback). */
export function timeZoneOptions(): { value: string; label: string }[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const list = intl.supportedValuesOf?.('timeZone') ?? [
    'Asia/Shanghai',
    'Asia/Hong_Kong',
    'Asia/Taipei',
    'Asia/Singapore',
    'Asia/Tokyo',
    'Europe/London',
    'America/New_York',
    'UTC',
  ];
  const all = list.includes('Asia/Shanghai') ? list : ['Asia/Shanghai', ...list];
  // Named as the studio says it; typing "Shanghai" still finds it (the pickers search the value).
  return all.map((z) => ({ value: z, label: z === 'Asia/Shanghai' ? '北京时间' : z }));
}

export { DEFAULT_TIME_ZONE };
