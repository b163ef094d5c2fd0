import { WEEKDAY_NAMES, type BulkPreview, type PreviewSession } from '@studio/contract';
import type { App } from 'antd';
import { amountText } from '../../../shared/format.ts';

type ModalApi = ReturnType<typeof App.useApp>['modal'];

/** A bulk change staff chose not to run after its preview (not an error to show). */
export class BulkCancelled extends Error {
  constructor() {
    super('已取消');
    this.name = 'BulkCancelled';
  }
}

const amounts = (list: BulkPreview['charged']) => list.map((a) => amountText(a.bigType, a.amount)).join('、');

/** The preview in staff words: what will be created or deleted, booked, cancelled and refunded. */
export function previewLines(countText: string, p: BulkPreview): string[] {
  const lines = [countText];
  if (p.booked)
    lines.push(`将预约 ${p.booked} 人次${p.charged.length ? `，扣除 ${amounts(p.charged)}` : '（签到时扣费）'}`);
  if (p.cancelled) lines.push(`将取消 ${p.cancelled} 个预约`);
  if (p.refunded.length) lines.push(`将退回 ${amounts(p.refunded)}，涉及 ${p.refundedMembers} 位会员`);
  if (!p.booked && !p.cancelled) lines.push('不涉及会员的预约');
  return lines;
}

/** 0 = Sunday of a `YYYY-MM-DD` date. */
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** One session of a preview: `2026-12-03（周四）10:00-11:00 瑜伽 · 林悦 · 瑜伽室`. */
export function sessionLine(s: PreviewSession): string {
  const where = [s.courseName, s.teacherName, s.areaName].filter(Boolean).join(' · ');
  return `${s.date}（周${WEEKDAY_NAMES[weekdayOf(s.date)]}）${s.startTime}-${s.endTime} ${where}`;
}

/** The sessions a bulk change makes, deletes or books, one a line (at most 50), then how many more. */
function SessionList({ title, p }: { title: string; p: BulkPreview }) {
  if (!p.sessions.length) return null;
  return (
    <div data-testid="bulk-sessions">
      <div style={{ margin: '4px 0' }}>{title}：</div>
      <ol style={{ paddingLeft: 24, margin: 0, maxHeight: 260, overflow: 'auto', fontSize: 13 }}>
        {p.sessions.map((x, i) => (
          <li key={i}>{sessionLine(x)}</li>
        ))}
      </ol>
      {p.moreSessions > 0 && (
        <div style={{ margin: '4px 0 0 6px' }} data-testid="bulk-sessions-more">
          另有 {p.moreSessions} 节
        </div>
      )}
    </div>
  );
}

/**
 * Shows what a bulk change will do (the server's dry run of the same call) and asks to go on; a
 * change the server would refuse is shown with its reason and clashing dates, and not run.
 * Resolves true to run it.
 */
export function confirmBulk(
  modal: ModalApi,
  o: {
    title: string;
    okText: string;
    countText: string;
    nothing?: string;
    count: number;
    preview: BulkPreview;
    /** What the listed sessions are: 新增的课程, 删除的课程... */
    listTitle: string;
  },
): Promise<boolean> {
  const p = o.preview;
  return new Promise((resolve) => {
    if (p.refusal) {
      modal.error({
        title: `无法${o.okText}`,
        content: (
          <div data-testid="bulk-refusal">
            <p>{p.refusal}</p>
            {p.clashes.length > 0 && <p>冲突的时间：{p.clashes.join('，')}</p>}
          </div>
        ),
        okText: '知道了',
        onOk: () => resolve(false),
      });
      return;
    }
    if (o.count === 0 && o.nothing) {
      modal.info({ title: o.title, content: o.nothing, okText: '知道了', onOk: () => resolve(false) });
      return;
    }
    modal.confirm({
      title: o.title,
      width: 560,
      content: (
        <>
          <ul data-testid="bulk-preview" style={{ paddingLeft: 18, margin: '8px 0' }}>
            {previewLines(o.countText, p).map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
          <SessionList title={o.listTitle} p={p} />
        </>
      ),
      okText: o.okText,
      okButtonProps: { danger: p.cancelled > 0 || p.refunded.length > 0 },
      cancelText: '再想想',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
