// Moving in (导入) and moving out (导出全部数据), issue 30 items 5-6 (server: features/import-export).
import { z } from 'zod';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { Msg } from '../messages.ts';

/** What a column of an import file can hold (`ignore`: not imported). */
export const IMPORT_FIELDS = [
  'name',
  'mobile',
  'gender',
  'birthday',
  'remark',
  'cardName',
  'remaining',
  'expireDate',
  'saleDate',
  'amountPaid',
  // A card's state, so a studio moves in as it was (all optional; older files without them import as before).
  'status',
  'activateBy',
  'leaves',
  'leaveDays',
  'refundDate',
  // 多人共享: the mobiles of the members the card is shared with (optional, like the state columns).
  'sharedWith',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export type ImportTarget = ImportField | 'ignore';

/**
 * The template's columns, in order, with their headings (the export's 会员卡 sheet has these, its
 * 会员 sheet the first five, so an exported workbook imports back).
 */
export const IMPORT_FIELD_LABEL: Record<ImportField, string> = {
  name: '姓名',
  mobile: '手机号',
  gender: '性别',
  birthday: '生日',
  remark: '备注',
  cardName: '卡种',
  remaining: '剩余次数或余额',
  expireDate: '到期日',
  saleDate: '开卡日期',
  amountPaid: '实收金额',
  status: '卡状态',
  activateBy: '激活截止',
  leaves: '请假记录',
  leaveDays: '已请假天数',
  refundDate: '退卡日期',
  sharedWith: '共享成员',
};
/**
 * A card's state as the 卡状态 column says it. 请假中 and 已过期 are read as 正常 (they follow from the
 * leave periods and the expiry); an empty cell is 正常.
 */
export const IMPORT_CARD_STATUSES = ['正常', '冻结', '未开卡', '已退卡'] as const;
export type ImportCardStatus = (typeof IMPORT_CARD_STATUSES)[number];
/** How 请假记录 writes one leave: its first and last day (several separated by ；). */
export const IMPORT_LEAVE_JOIN = '至';
export const IMPORT_LEAVES_SEPARATOR = '；';
/**
 * How 共享成员 writes a card's list (多人共享): the members' mobiles in the order they were added,
 * separated by 、 (read also with ，, ; or ；).
 */
export const IMPORT_SHARE_SEPARATOR = '、';
/** Other headings a file from another system may use for a field (the mapping is guessed from them). */
export const IMPORT_FIELD_ALIASES: Record<ImportField, string[]> = {
  name: ['姓名', '会员姓名', '名字', '会员名称', 'name'],
  mobile: ['手机号', '手机', '手机号码', '电话', '联系电话', 'mobile', 'phone'],
  gender: ['性别', 'gender'],
  birthday: ['生日', '出生日期', 'birthday'],
  remark: ['备注', '说明', 'remark'],
  cardName: ['卡种', '卡名称', '会员卡', '卡类型', '卡种名称', 'card'],
  remaining: ['剩余次数或余额', '剩余次数', '剩余', '余额', '剩余课时', 'remaining', 'balance'],
  expireDate: ['到期日', '到期日期', '有效期至', '截止日期', 'expire'],
  saleDate: ['开卡日期', '购卡日期', '办卡日期', '开卡时间', '激活日期'],
  amountPaid: ['实收金额', '实付金额', '金额', '购卡金额', 'paid'],
  status: ['卡状态', '状态', '会员卡状态'],
  activateBy: ['激活截止', '最晚开卡日期', '激活截止日期'],
  leaves: ['请假记录', '请假'],
  leaveDays: ['已请假天数', '请假天数'],
  refundDate: ['退卡日期', '退卡时间'],
  sharedWith: ['共享成员', '共享会员', '家庭成员', '共享给', '共享人'],
};
/** One file holds at most this many rows (members and cards together). */
export const IMPORT_ROWS_MAX = 20_000;
/** A file is at most 12 MB (its base64 a third more). */
export const IMPORT_FILE_MAX_BYTES = 12 * 1024 * 1024;
const CONTENT_MAX = Math.ceil(IMPORT_FILE_MAX_BYTES / 3) * 4;
/** At most this many columns in a file (and entries in a mapping). */
export const IMPORT_COLUMNS_MAX = 100;
/** A dry run lists at most this many problems (the count says how many there are). */
export const IMPORT_ERRORS_MAX = 2000;
/** The store setting remembering the last mapping. */
export const IMPORT_MAPPING_SETTING = 'import.mapping';

export const ImportMsg = {
  fileName: '请选择要导入的文件',
  content: '文件内容为空',
  fileKind: '只支持 .xlsx 或 .csv 文件（Excel 可另存为这两种格式）',
  fileBroken: '文件无法读取，请确认是 .xlsx 或 .csv 文件且未损坏',
  fileTooLarge: `文件不能超过${IMPORT_FILE_MAX_BYTES / 1024 / 1024}MB`,
  unzippedTooLarge: '文件解压后超过64MB，可能不是正常的表格文件；请删去多余的行和列，或分成几个文件',
  tooManyRows: `一次最多导入${IMPORT_ROWS_MAX}行，请分成几个文件`,
  noRows: '文件里没有数据行（第一行应为表头）',
  noHeader: '第一行应为表头（列名），不能为空',
  tooManyColumns: `文件最多${IMPORT_COLUMNS_MAX}列`,
  duplicates: '请选择手机号已存在的会员如何处理（合并或跳过）',
  overPrepaid: (rule: string, over: string) => `超出预付卡限额（${rule}）：${over}；此卡照常导入`,
  mapping: '列对应关系不正确',
  mappingUnknownColumn: (column: string) => `文件中没有“${column}”这一列`,
  mappingTwice: (field: string) => `“${field}”只能对应文件中的一列`,
  mappingNeeds: '请指定“姓名”和“手机号”对应的列',
  mappingCardNeeds: '导入会员卡需要同时指定“卡种”和“剩余次数或余额”对应的列',
  /** The import was asked for while the file still has problems. */
  hasErrors: (n: number) => `文件中有${n}处问题，请修正后重新上传（可先预检查看每一行的问题）`,
  busy: '本店正在导入，请等上一次导入完成后再试',
  // Row problems (the row number and column are said beside them).
  nameMissing: '姓名不能为空',
  nameTooLong: '姓名不能超过50个字符',
  mobileMissing: '手机号不能为空',
  mobileBad: '手机号格式不正确（应为11位，以1开头）',
  genderBad: '性别只能填 男、女 或留空',
  birthdayBad: '生日不是有效日期（如 1990-05-01）',
  birthdayFuture: '生日不能晚于今天',
  remarkTooLong: '备注不能超过500个字符',
  cardUnknown: '卡种不存在',
  cardDisabled: '卡种已停用',
  cardMissing: '填写了剩余次数或余额，但卡种为空',
  remainingMissing: '填写了卡种，但剩余次数或余额为空',
  remainingBad: '剩余次数或余额不是数字',
  remainingNegative: '余额为负',
  remainingCountWhole: '次卡的剩余次数应为整数',
  remainingMoneyCents: '储值卡余额最多两位小数（元）',
  remainingTooBig: '剩余次数或余额过大',
  expireBad: '到期日不是有效日期（如 2026-12-31）',
  expireBeforeSale: '到期日早于开卡日期',
  expireMissing: '该卡种没有默认有效期，请填写到期日',
  expireNotAllowed: '该卡种不限期，到期日应留空',
  saleBad: '开卡日期不是有效日期（如 2025-01-01）',
  saleFuture: '开卡日期不能晚于今天',
  paidBad: '实收金额不是有效的金额（元，最多两位小数）',
  paidNegative: '实收金额不能为负',
  paidWithoutCard: '填写了实收金额，但没有卡种',
  cardFieldsWithoutCard: '填写了到期日或开卡日期，但没有卡种',
  sameMobileOtherName: (row: number) => `同一手机号在第${row}行的姓名不同`,
  sameMobileTwice: (row: number) => `手机号与第${row}行重复（同一会员的多张卡请每行填写卡种）`,
  textControl: '内容含有不可见的控制字符',
  statusBad: '卡状态只能填 正常、冻结、未开卡、已退卡 或留空',
  cardStateWithoutCard: '填写了卡状态、请假或退卡信息，但没有卡种',
  notStartedDate: '未开卡的卡开卡日期应晚于今天，或留空（首次上课开卡）',
  notStartedNeedsFirstClass: '该卡种不是首次上课开卡，未开卡的卡请填写开卡日期',
  activateByBad: '激活截止不是有效日期（如 2026-03-01）',
  activateByStarted: '激活截止只用于未开卡的卡（开卡日期应留空）',
  activateByTooLate: '激活截止晚于该卡种的开卡期限（售卡后可延后开卡的天数）',
  leavesBad: '请假记录格式不正确（如 2026-01-01至2026-01-10，多段用；分隔）',
  leavesOverlap: '请假记录的时间段有重叠',
  leavesNoExpiry: '不限期的卡不能有请假记录',
  leaveDaysBad: '已请假天数应为整数',
  leaveDaysMismatch: (n: number) => `已请假天数与请假记录不符（请假记录合计${n}天）`,
  refundedHasBalance: '已退卡的卡剩余次数或余额应为0',
  refundDateBad: '退卡日期不是有效日期（如 2026-03-01）',
  refundDateFuture: '退卡日期不能晚于今天',
  refundDateNotRefunded: '填写了退卡日期，但卡状态不是已退卡',
  shareWithoutCard: '填写了共享成员，但没有卡种',
  shareMobileBad: (mobile: string) => `共享成员的手机号“${mobile}”格式不正确（应为11位，以1开头，多人用、分隔）`,
  shareSelf: '共享成员不能是持卡会员本人',
  shareTwice: (mobile: string) => `共享成员中手机号${mobile}重复`,
  shareNotShared: '该卡种不能共享（共享人数为0），共享成员应留空',
  shareTooMany: (n: number) => `共享成员超过卡种的共享人数（最多 ${n} 人）`,
  shareUnknown: (mobile: string) => `共享成员${mobile}不在文件中，也不是本店会员`,
} as const;

const zFileFields = {
  fileName: z.string({ error: ImportMsg.fileName }).trim().min(1, ImportMsg.fileName).max(200, ImportMsg.fileName),
  /** The file, base64. */
  content: z
    .string({ error: ImportMsg.content })
    .min(1, ImportMsg.content)
    .max(CONTENT_MAX, ImportMsg.fileTooLarge)
    .regex(/^[A-Za-z0-9+/=\r\n]*$/, ImportMsg.fileBroken),
};
/** 姓名,手机号 / 张三,13800138000 as a CSV file, base64 (the examples). */
const SAMPLE_CSV = '5aeT5ZCNLOaJi+acuuWPtwrlvKDkuIksMTM4MDAxMzgwMDAK';
const FILE_BODY_LIMIT = CONTENT_MAX + 64 * 1024;
const fileErrors = [
  ...fails.badRequest(
    ImportMsg.fileKind,
    ImportMsg.fileBroken,
    ImportMsg.unzippedTooLarge,
    ImportMsg.tooManyRows,
    ImportMsg.noRows,
    ImportMsg.noHeader,
    ImportMsg.tooManyColumns,
  ),
];

/**
 * The id the browser gives an import or export to ask how far it has got (query/job/progress);
 * random, made by the browser before it sends the file.
 */
export const zProgressId = z
  .string()
  .regex(/^[A-Za-z0-9-]{8,64}$/, '进度编号不正确')
  .optional();
/** What a progress answer says the work is doing. */
export const JOB_PHASES = ['waiting', 'read', 'check', 'write', 'export', 'done', 'failed'] as const;
export type JobPhase = (typeof JOB_PHASES)[number];
/** The phase in the manager's words (the bar's caption). */
export const JOB_PHASE_LABEL: Record<JobPhase, string> = {
  waiting: '等待开始',
  read: '正在读取文件',
  check: '正在检查',
  write: '正在导入',
  export: '正在导出',
  done: '已完成',
  failed: '未完成',
};

/** Column heading -> field. */
export const zImportMapping = z
  .record(z.string().max(200), z.enum([...IMPORT_FIELDS, 'ignore'], { error: ImportMsg.mapping }))
  .refine((m) => Object.keys(m).length <= IMPORT_COLUMNS_MAX, { error: ImportMsg.tooManyColumns });
export type ImportMapping = Record<string, ImportTarget>;

export const zImportProblem = z.object({
  /** The sheet (a workbook's 会员 or 会员卡), '' for a CSV file or a one-sheet workbook. */
  sheet: z.string(),
  /** The row number as the spreadsheet shows it (the header is row 1). */
  row: z.number().int(),
  /** The column's heading, '' when the problem is the row's. */
  column: z.string(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof zImportProblem>;

export const queryImportColumns = defineCall({
  path: `${STORE_API}/query/import/columns`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  bodyLimit: FILE_BODY_LIMIT,
  req: z.object(zFileFields),
  res: z.object({
    columns: z.array(z.string()),
    /** Data rows of the members' sheets (members and cards). */
    rows: z.number().int(),
    /** Rows of the 潜客 sheet (read by its own headings, not mapped); 0 when the file has none. */
    leadRows: z.number().int(),
    /** The first rows, as text, to show beside the mapping. */
    sample: z.array(z.array(z.string())),
    /** The remembered mapping where it names these columns, otherwise guessed from the headings. */
    mapping: z.record(z.string(), z.enum([...IMPORT_FIELDS, 'ignore'])),
  }),
  summary: '导入：读取文件的列名，给出列对应关系（上次的对应关系或按列名猜测）',
  example: { fileName: '会员.csv', content: SAMPLE_CSV },
  errors: fileErrors,
});

export const importMembers = defineCall({
  path: `${STORE_API}/import/members`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  bodyLimit: FILE_BODY_LIMIT,
  req: z.object({
    ...zFileFields,
    mapping: zImportMapping,
    /** A mobile already in the store: merge (update the fields the file fills, add the card) or skip the row. */
    duplicates: z.enum(['merge', 'skip'], { error: ImportMsg.duplicates }),
    /** Check only: report every problem and what would be created, write nothing. */
    dryRun: z.boolean().default(false),
    /** Ask query/job/progress with this id meanwhile for how far it has got. */
    progressId: zProgressId,
  }),
  res: z.object({
    /** Members created. */
    members: z.number().int(),
    /** Existing members (matched by mobile) updated, and rows skipped as duplicates. */
    updated: z.number().int(),
    skipped: z.number().int(),
    /** Cards created (each with its opening ledger entry 导入期初余额). */
    cards: z.number().int(),
    /** The 潜客 sheet's leads created, and those merged into a lead of the same mobile. */
    leads: z.number().int(),
    leadsMerged: z.number().int(),
    errors: z.array(zImportProblem),
    /** How many problems there are (the list stops at IMPORT_ERRORS_MAX). */
    errorCount: z.number().int(),
    /**
     * Cards over the store's prepaid limits (预付卡限额), row by row: imported all the same (sold
     * before), listed so that the studio knows; the list stops at IMPORT_ERRORS_MAX.
     */
    warnings: z.array(zImportProblem),
    warningCount: z.number().int(),
    /** The audit entry of the import (undo it from 操作日志 within 24 hours); null on a dry run. */
    auditId: z.number().int().nullable(),
  }),
  summary: '导入会员和会员卡（.xlsx 或 .csv）：预检报告每一行的问题，导入在一个事务中完成，可在24小时内撤销',
  example: {
    fileName: '会员.csv',
    content: SAMPLE_CSV,
    mapping: { 姓名: 'name', 手机号: 'mobile' },
    duplicates: 'merge',
    dryRun: true,
  },
  errors: [
    ...fileErrors,
    ...fails.badRequest(
      ImportMsg.mappingUnknownColumn('{column}'),
      ImportMsg.mappingTwice('{field}'),
      ImportMsg.mappingNeeds,
      ImportMsg.mappingCardNeeds,
      ImportMsg.hasErrors(0).replace('0', '{n}'),
    ),
    ...fails.conflict(ImportMsg.busy, Msg.duplicateOp),
  ],
});

export const EXPORT_FORMATS = ['xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The workbook's sheets, in order. */
export const EXPORT_SHEETS = ['会员', '会员卡', '流水', '预约', '课程', '订单', '收款'] as const;

export const exportStoreData = defineCall({
  path: `${STORE_API}/export/store/data`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    format: z.enum(EXPORT_FORMATS, { error: '请选择导出格式（xlsx 或 json）' }),
    /** Ask query/job/progress with this id while the file downloads for the rows written so far. */
    progressId: zProgressId,
  }),
  res: z.object({
    /** GET it (same login) within a few minutes: the file streams from there. */
    url: z.string(),
    fileName: z.string(),
  }),
  summary: '导出全部数据：会员、会员卡（余额和到期日）、流水、预约、课程、订单和收款，一个 .xlsx 工作簿或 JSON',
  example: { format: 'xlsx' },
});

/**
 * How far an import or export has got: its phase and the rows done of the total (导入: the rows
 * checked, then the members and cards written; 导出: the rows written of all sheets). Answered by
 * the instance doing the work, or on PostgreSQL by any instance from the shared progress row;
 * `waiting` until the work has started (the file is still uploading) or for an id not known.
 */
export const queryJobProgress = defineCall({
  path: `${STORE_API}/query/job/progress`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ progressId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, '进度编号不正确') }),
  res: z.object({
    phase: z.enum(JOB_PHASES),
    done: z.number().int(),
    total: z.number().int(),
  }),
  summary: '导入或导出的进度：阶段和已完成的行数',
  example: { progressId: '3f2a9c1e-import' },
});

export const importExportCalls = [queryImportColumns, importMembers, exportStoreData, queryJobProgress] as const;
