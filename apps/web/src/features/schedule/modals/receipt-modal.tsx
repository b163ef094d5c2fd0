import { PrinterOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { amountText } from '../../../shared/format.ts';
import { useStore } from '../../../shared/profile.ts';
import { storeDateTime } from '../../../shared/store-time.ts';
import { balanceLines, maskMobile } from '../lib/receipt-text.ts';
import type { BookingRow, SessionInfo } from '../types.ts';
import '../receipt.css';

/** Print rules exist only while the receipt is open, so other pages print normally. */
const PRINT_CSS = `@media print {
  @page { size: 58mm 110mm; margin: 0; }
  html, body { margin: 0 !important; padding: 0 !important; height: auto !important; overflow: visible !important; }
  body > *:not(.receipt-print-root) { display: none !important; }
  .receipt-print-root { display: block !important; }
  .receipt-print-root .receipt { height: 109.5mm; overflow: hidden; break-after: avoid; }
}`;

interface Props {
  session: SessionInfo;
  row: BookingRow;
  onClose: () => void;
}

/** `printedAt`: the store's wall clock when the receipt was opened (`YYYY-MM-DD HH:mm`). */
function Receipt({ session, row, storeName, printedAt }: Props & { storeName: string; printedAt: string }) {
  return (
    <div className="receipt">
      <h1>{storeName}</h1>
      <div className="receipt-sub">上课凭条</div>
      <section>
        <h2>课程</h2>
        <p>课程：{session.courseName}</p>
        <p>
          时间：{session.startTime.slice(0, 16)}-{session.endTime.slice(11, 16)}
        </p>
        <p>老师：{session.teacherName}</p>
        <p>场地：{session.areaName || '无'}</p>
      </section>
      <section>
        <h2>会员</h2>
        <p>姓名：{row.memberName}</p>
        <p data-testid="receipt-mobile">手机：{maskMobile(row.memberMobile)}</p>
        <p>人数：{row.studentCount}</p>
      </section>
      <section>
        <h2>会员卡</h2>
        <p>卡名：{row.cardName}</p>
        <p>扣除：{amountText(row.bigType, row.usedCount)}</p>
        {balanceLines(row).map((l) => (
          <p key={l} data-testid="receipt-balance">
            {l}
          </p>
        ))}
      </section>
      {/* Only a 少儿 course's receipt asks for a parent's signature (course setting 少儿课程). */}
      {session.forChildren && (
        <section data-testid="receipt-parent-sign">
          <h2>家长签字</h2>
          <div className="receipt-sign" />
        </section>
      )}
      <div className="receipt-foot" data-testid="receipt-printed-at">
        打印时间 {printedAt}
      </div>
    </div>
  );
}

/**
 * Print receipt: a 58mm x 110mm page (@page). While the modal is open a print-only copy sits at the
 * top of <body>; the print stylesheet hides everything else.
 */
export default function ReceiptModal(props: Props) {
  const store = useStore();
  // The store's clock, whatever the browser's time zone; one reading for the preview and the print.
  const [printedAt] = useState(() => storeDateTime(store.timezone).slice(0, 16));
  return (
    <Modal
      open
      title="打印小票"
      width={360}
      onCancel={props.onClose}
      footer={[
        <Button key="c" onClick={props.onClose}>
          关闭
        </Button>,
        <Button key="p" type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>,
      ]}
    >
      <div className="receipt-preview">
        <Receipt {...props} storeName={store.name} printedAt={printedAt} />
      </div>
      {createPortal(
        <div className="receipt-print-root">
          <style>{PRINT_CSS}</style>
          <Receipt {...props} storeName={store.name} printedAt={printedAt} />
        </div>,
        document.body,
      )}
    </Modal>
  );
}
