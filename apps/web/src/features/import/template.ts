// The import template: the columns the import knows, with two example rows.
import { IMPORT_FIELD_LABEL, IMPORT_FIELDS } from '@studio/contract';
import { downloadSheet } from '../../shared/xlsx.ts';

const EXAMPLE: (string | number)[][] = [
  ['张三', '13800138000', '男', '1990-05-01', '老会员', '次卡', 12, '2026-12-31', '2025-06-01', 1200],
  ['张三', '13800138000', '', '', '', '储值卡', 350.5, '', '2025-01-10', 500],
  ['李四', '13900139000', '女', '', '只有会员信息，没有卡', '', '', '', '', ''],
];

/** Downloads 会员导入模板.xlsx: a sheet in the import's columns (one row per card; a member without a card has one row). */
export function downloadTemplate(): Promise<void> {
  return downloadSheet(
    '会员导入模板',
    '会员卡',
    IMPORT_FIELDS.map((f) => ({ header: IMPORT_FIELD_LABEL[f], width: f === 'remark' ? 24 : 14 })),
    EXAMPLE,
  );
}
