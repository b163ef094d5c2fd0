import { PICTURE_CAPTURE_TIMEOUT_MS } from '@studio/contract';
import type { CalendarSession } from '../types.ts';

export type DayPart = 'morning' | 'afternoon' | 'evening';
export const DAY_PARTS: { key: DayPart; label: string }[] = [
  { key: 'morning', label: '上午' },
  { key: 'afternoon', label: '下午' },
  { key: 'evening', label: '晚上' },
];

/**
 * By the start time (spec section 9, read as clock hours): 上午 before 12:00, 下午 from 12:00 to
 * 18:59, 晚上 from 19:00. A 12:10 class is an afternoon one.
 */
export function dayPart(fromTime: string): DayPart {
  const h = Number(fromTime.slice(11, 13));
  if (h < 12) return 'morning';
  if (h <= 18) return 'afternoon';
  return 'evening';
}

/** Sessions grouped by day part and weekday column (0 = Monday ... 6 = Sunday), each sorted by time. */
export function pictureGrid(sessions: CalendarSession[]): Record<DayPart, CalendarSession[][]> {
  const grid: Record<DayPart, CalendarSession[][]> = {
    morning: Array.from({ length: 7 }, () => []),
    afternoon: Array.from({ length: 7 }, () => []),
    evening: Array.from({ length: 7 }, () => []),
  };
  for (const s of [...sessions].sort((a, b) => a.fromTime.localeCompare(b.fromTime))) {
    const col = (new Date(`${s.fromTime.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7;
    grid[dayPart(s.fromTime)][col].push(s);
  }
  return grid;
}

/**
 * The four background styles of the picture. The accent colours the title and the weekday heads:
 * dark enough for the title on the light end of the background and for the heads' text on it (see
 * `inkOn`): blue #0958d9, orange #ad4e00 and green #237804 take white at 6.16, 5.43 and 5.59:1.
 */
export const PICTURE_STYLES = [
  { key: 'blue', label: '清新蓝', background: 'linear-gradient(160deg, #e6f4ff 0%, #bae0ff 100%)', accent: '#0958d9' },
  {
    key: 'orange',
    label: '活力橙',
    background: 'linear-gradient(160deg, #fff7e6 0%, #ffd591 100%)',
    accent: '#ad4e00',
  },
  { key: 'green', label: '森林绿', background: 'linear-gradient(160deg, #f6ffed 0%, #b7eb8f 100%)', accent: '#237804' },
  { key: 'dark', label: '暗夜黑', background: 'linear-gradient(160deg, #262626 0%, #434343 100%)', accent: '#ffc53d' },
] as const;

export const DEFAULT_REMINDER = '温馨提示：请提前10分钟到店签到；如需取消预约，请至少提前2小时联系前台。';

export class CaptureTimeout extends Error {}

/** Captures a node to a PNG data URL; gives up after the time-out (15000 ms by default). */
export async function captureNode(node: HTMLElement, timeoutMs = PICTURE_CAPTURE_TIMEOUT_MS): Promise<string> {
  const { toPng } = await import('html-to-image');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CaptureTimeout('生成图片超时')), timeoutMs);
  });
  try {
    return await Promise.race([toPng(node, { pixelRatio: 2, cacheBust: true, backgroundColor: '#ffffff' }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the browser download of a data URL. */
export function downloadDataUrl(dataUrl: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = dataUrl;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
