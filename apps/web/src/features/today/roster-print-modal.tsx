import { PrinterOutlined } from '@ant-design/icons';
import type { TodaySession } from '@studio/contract';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from '../../shared/profile.ts';
import { storeDateTime } from '../../shared/store-time.ts';
import { STATE_TEXT } from './states.ts';
import './roster.css';

/** Print rules exist only while the roster is open, so other pages print normally. */
const PRINT_CSS = `@media print {
  @page { size: A4 portrait; margin: 14mm; }
  html, body { margin: 0 !important; padding: 0 !important; height: auto !important; overflow: visible !important; }
  body > *:not(.roster-print-root) { display: none !important; }
  .roster-print-root { display: block !important; }
}`;

/** `printedAt`: the store's wall clock when the roster was opened (`YYYY-MM-DD HH:mm`). */
function Roster({ session, storeName, printedAt }: { session: TodaySession; storeName: string; printedAt: string }) {
  const people = session.roster.reduce((n, r) => n + r.studentCount, 0);
  return (
    <div className="roster-sheet">
      <h1>{storeName} 上课名单</h1>
      <p className="roster-meta">
        {session.startTime.slice(0, 16)}-{session.endTime.slice(11, 16)} · {session.courseName} · 老师：
        {session.teacherName} · 场地：{session.areaName || '无'} · 人数：{people}/{session.reservableCount}
      </p>
      <table>
        <thead>
          <tr>
            <th>序号</th>
            <th>姓名</th>
            <th>手机号</th>
            <th>会员卡</th>
            <th>人数</th>
            <th>状态</th>
            <th>备注</th>
            <th>签名</th>
          </tr>
        </thead>
        <tbody>
          {session.roster.map((r, i) => (
            <tr key={`${r.kind}-${r.id}`}>
              <td>{i + 1}</td>
              <td>{r.memberName}</td>
              <td>{r.mobile}</td>
              <td>{r.cardName ?? '签到时选择'}</td>
              <td>{r.studentCount}</td>
              <td>{STATE_TEXT[r.state]}</td>
              <td className="roster-remark">{r.remark ?? ''}</td>
              <td className="roster-sign" />
            </tr>
          ))}
        </tbody>
      </table>
      <div className="roster-foot">打印时间 {printedAt}</div>
    </div>
  );
}

/** A class's roster on an A4 page, with each booking's 备注 and a column for signatures; printed with the browser's print. */
export default function RosterPrintModal({ session, onClose }: { session: TodaySession; onClose: () => void }) {
  const store = useStore();
  const storeName = store.name;
  // The store's clock, whatever the browser's time zone; one reading for the preview and the print.
  const [printedAt] = useState(() => storeDateTime(store.timezone).slice(0, 16));
  return (
    <Modal
      open
      title="打印上课名单"
      width={820}
      onCancel={onClose}
      footer={[
        <Button key="c" onClick={onClose}>
          关闭
        </Button>,
        <Button key="p" type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>,
      ]}
    >
      <div className="roster-preview" data-testid="roster-preview">
        <Roster session={session} storeName={storeName} printedAt={printedAt} />
      </div>
      {createPortal(
        <div className="roster-print-root">
          <style>{PRINT_CSS}</style>
          <Roster session={session} storeName={storeName} printedAt={printedAt} />
        </div>,
        document.body,
      )}
    </Modal>
  );
}
