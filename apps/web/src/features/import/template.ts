// The import template: the columns the import knows, with two example rows.
import { IMPORT_FIELD_LABEL, IMPORT_FIELDS, LEAD_IMPORT_COLUMNS, LEAD_IMPORT_SHEET } from '@studio/contract';
import { downloadWorkbook } from '../../shared/xlsx.ts';

// The last six columns (卡状态, 激活截止, 请假记录, 已请假天数, 退卡日期, 共享成员) may stay empty: a card 正常,
// started on 开卡日期, not shared. 共享成员: the mobiles of the members a family card (多人共享) names, separated by 、.
const EXAMPLE: (string | number)[][] = [
  [
    '张三',
    '13800138000',
    '男',
    '1990-05-01',
    '老会员',
    '次卡',
    12,
    '2026-12-31',
    '2025-06-01',
    1200,
    '正常',
    '',
    '2025-08-01至2025-08-10',
    10,
    '',
    '13700137000、13600136000',
  ],
  ['张三', '13800138000', '', '', '', '储值卡', 350.5, '', '2025-01-10', 500, '冻结', '', '', '', '', ''],
  [
    '王五',
    '13700137000',
    '女',
    '',
    '首次上课开卡，还没上课',
    '次卡',
    20,
    '',
    '',
    1800,
    '未开卡',
    '2026-03-01',
    '',
    '',
    '',
    '',
  ],
  [
    '赵六',
    '13600136000',
    '',
    '',
    '已退的卡',
    '次卡',
    0,
    '2025-12-31',
    '2025-01-01',
    0,
    '已退卡',
    '',
    '',
    '',
    '2025-03-01',
    '',
  ],
  ['李四', '13900139000', '女', '', '只有会员信息，没有卡', '', '', '', '', '', '', '', '', '', '', ''],
];

/**
 * The 潜客 sheet's examples: 来源 empty is 导入, 跟进人 an enabled staff member's name or account (empty:
 * 公海), 阶段 empty is 新线索, 营销同意 是 records the consent (导入).
 */
const LEAD_EXAMPLE: string[][] = [
  ['王小姐', '13500135000', '团购', '', '已联系', '想练瑜伽，周末有空', '是'],
  ['陈先生', '13400134000', '', '', '', '', ''],
];

/**
 * Downloads 会员导入模板.xlsx: 会员卡 in the import's columns (one row per card; a member without a card
 * has one row) and 潜客 (leads, read by its own columns).
 */
export function downloadTemplate(): Promise<void> {
  return downloadWorkbook('会员导入模板', [
    {
      name: '会员卡',
      columns: IMPORT_FIELDS.map((f) => ({
        header: IMPORT_FIELD_LABEL[f],
        width: f === 'remark' || f === 'leaves' || f === 'sharedWith' ? 24 : 14,
      })),
      rows: EXAMPLE,
    },
    {
      name: LEAD_IMPORT_SHEET,
      columns: LEAD_IMPORT_COLUMNS.map((header) => ({ header, width: header === '备注' ? 24 : 14 })),
      rows: LEAD_EXAMPLE,
    },
  ]);
}
