import { AUDIT_KINDS, type AuditRow } from '@studio/contract';
import { downloadSheet } from '../../shared/xlsx.ts';
import { changeLines } from './changes.ts';

/** Downloads the entries as 操作日志_<from>_<to>.xlsx (one row each; the changes one line per field). */
export function exportAuditRows(rows: AuditRow[], fromDate: string, toDate: string): Promise<void> {
  return downloadSheet(
    `操作日志_${fromDate}_${toDate}`,
    '操作日志',
    [
      { header: '时间', width: 20 },
      { header: '操作人', width: 16 },
      { header: '类别', width: 10 },
      { header: '对象', width: 30 },
      { header: '内容', width: 40 },
      { header: '变更', width: 50 },
      { header: '撤销时间', width: 20 },
    ],
    rows.map((r) => [
      r.time,
      r.staff,
      AUDIT_KINDS[r.kind] ?? r.kind,
      r.target,
      r.summary,
      changeLines(r.before, r.after).join('\n'),
      r.undoneTime,
    ]),
  );
}
