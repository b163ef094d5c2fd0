import { maskMobile, type UndoMoneyLine, type UndoPreview } from '@studio/contract';
import { amountText } from '../../shared/format.ts';

/** 138****5678: the middle four digits of a mobile hidden (the undo confirm names members, not their numbers). */

const totals = (list: UndoPreview['refundTotal']) => list.map((a) => amountText(a.bigType, a.amount)).join('、');

/** One refund or deduction: who, which card, which class, how much. */
function MoneyLine({ l, verb }: { l: UndoMoneyLine; verb: string }) {
  return (
    <li>
      {l.memberName}（{maskMobile(l.memberMobile)}）· {l.cardName} · {l.courseName} {l.startTime.slice(5, 16)} · {verb}{' '}
      <b>{amountText(l.bigType, l.amount)}</b>
    </li>
  );
}

function MoneyList({
  title,
  lines,
  more,
  verb,
}: {
  title: string;
  lines: UndoMoneyLine[];
  more: number;
  verb: string;
}) {
  return (
    <>
      <p style={{ margin: '8px 0 4px' }}>{title}</p>
      <ul className="undo-money" style={{ maxHeight: 220, overflow: 'auto', paddingLeft: 18, margin: 0 }}>
        {lines.map((l, i) => (
          <MoneyLine key={i} l={l} verb={verb} />
        ))}
        {more > 0 && <li>另有 {more} 笔</li>}
      </ul>
    </>
  );
}

/** What an undo will do, as its confirm says it: sessions, bookings, and every refund and deduction by name. */
export function UndoPreviewContent({ p }: { p: UndoPreview }) {
  const lines = [
    p.sessionsDeleted ? `删除这次操作新增的 ${p.sessionsDeleted} 节课` : '',
    p.sessionsRestored ? `恢复这次操作删除的 ${p.sessionsRestored} 节课` : '',
    p.bookingsCancelled ? `取消 ${p.bookingsCancelled} 个预约` : '',
    p.bookingsRestored ? `恢复 ${p.bookingsRestored} 个预约` : '',
  ].filter(Boolean);
  const nothing = !p.refunds.length && !p.charges.length;
  return (
    <div data-testid="undo-preview">
      {lines.length > 0 && (
        <ul style={{ paddingLeft: 18, margin: '4px 0' }}>
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
      {p.refunds.length > 0 && (
        <MoneyList
          title={`将退回 ${totals(p.refundTotal)}，涉及 ${p.refundedMembers} 位会员：`}
          lines={p.refunds}
          more={p.moreRefunds}
          verb="退回"
        />
      )}
      {p.charges.length > 0 && (
        <MoneyList
          title={`将重新扣除 ${totals(p.chargeTotal)}，涉及 ${p.chargedMembers} 位会员：`}
          lines={p.charges}
          more={p.moreCharges}
          verb="扣除"
        />
      )}
      {nothing && <p style={{ margin: '8px 0 0' }}>不退回也不扣除会员卡的任何次数或金额。</p>}
    </div>
  );
}
