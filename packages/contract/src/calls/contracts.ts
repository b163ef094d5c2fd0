// 电子合同 (issue 45, item 1): the store's contract template, versioned, with fields filled per sale.
// The manager edits the text (合同模板); every card sale (desk or online; not an import) names the
// version in force at the sale, and the card's contract reads as that version filled with the sale's
// terms. Server: features/contracts.
import { z } from 'zod';
import { zId } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';

/**
 * The fields a template may name, each written as `{{label}}` in the staff's words (`{{会员姓名}}`),
 * filled per sale.
 */
export const CONTRACT_FIELDS = {
  studio: '门店名称',
  licence: '经营者名称',
  member: '会员姓名',
  mobile: '会员手机号',
  product: '卡种名称',
  cardKind: '卡种类型',
  price: '实付金额',
  amount: '次数或余额',
  validity: '有效期',
  activation: '开卡方式',
  stores: '适用门店',
  leave: '请假规则',
  transfer: '转让规则',
  refund: '退款规则',
  coolingOff: '冷静期天数',
  saleDate: '签订日期',
} as const;
export type ContractField = keyof typeof CONTRACT_FIELDS;
export const CONTRACT_FIELD_KEYS = Object.keys(CONTRACT_FIELDS) as ContractField[];

export const CONTRACT_TITLE_MAX = 60;
export const CONTRACT_BODY_MAX = 20_000;
export const CONTRACT_LICENCE_MAX = 100;

/**
 * The contract a store starts with (its template's version 1 until the manager saves its own): plain,
 * fair terms, consistent with the card-life rules (a full refund within the cooling-off days, refunds
 * by the product's rule after them, transfer allowed, leave by the product's rule).
 */
export const CONTRACT_DEFAULT_TITLE = '会员卡服务合同';
export const CONTRACT_DEFAULT_BODY = [
  '甲方（经营者）：{{经营者名称}}（门店：{{门店名称}}）',
  '乙方（会员）：{{会员姓名}}，手机号 {{会员手机号}}',
  '',
  '一、服务内容',
  '乙方购买「{{卡种名称}}」（{{卡种类型}}），卡内{{次数或余额}}，实付{{实付金额}}。适用门店：{{适用门店}}。',
  '',
  '二、有效期与开卡',
  '有效期：{{有效期}}。开卡方式：{{开卡方式}}。',
  '',
  '三、请假',
  '{{请假规则}}',
  '',
  '四、转让',
  '{{转让规则}}',
  '',
  '五、冷静期与退款',
  '自购卡之日起{{冷静期天数}}天内（冷静期），会员卡未使用的，乙方可申请全额退款。',
  '冷静期后：{{退款规则}}',
  '甲方不得以「私教费不退」「不可转让」等条款排除乙方依法享有的权利。',
  '',
  '六、甲方的义务',
  '甲方按公布的课表提供课程；停业、迁址或不能继续提供服务的，应提前通知乙方，并按未使用部分退还费用。',
  '',
  '七、个人信息',
  '甲方仅为提供本合同约定的服务收集和使用乙方的个人信息，乙方可在会员端「我的 → 个人信息」查看、下载或申请删除。',
  '',
  '八、其他',
  '本合同自乙方签署之日起生效，一式两份，甲乙双方各执一份，具有同等法律效力。',
  '',
  '签订日期：{{签订日期}}',
].join('\n');

export const ContractMsg = {
  title: '请填写合同标题',
  body: '请填写合同正文',
  licence: '经营者名称不能超过100个字符',
} as const;

/** The labels of the fields, as a template writes them between `{{` and `}}`. */
export const CONTRACT_FIELD_LABELS: readonly string[] = Object.values(CONTRACT_FIELDS);

/**
 * Why a text cannot be a contract's: the `{{…}}`s it names that are not in `known` (the
 * CONTRACT_FIELD_LABELS), said in Chinese; '' when every one is known. Self-contained (the web checks
 * with it before saving, as the server does).
 */
export function contractFieldProblem(text: string, known: readonly string[]): string {
  const named = [...String(text).matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((m) => m[1]);
  const unknown = [...new Set(named)].filter((k) => ![known].flat().includes(k));
  return unknown.length ? `合同中有不认识的字段：${unknown.map((k) => `{{${k}}}`).join('、')}` : '';
}

/**
 * The text with each `{{label}}` replaced by its field's value (an unknown one is left as written);
 * `fields` the CONTRACT_FIELDS (passed: the web runs this on its own, with nothing else of the contract).
 */
export function renderContract(
  text: string,
  values: Partial<Record<ContractField, string>>,
  fields: Record<ContractField, string>,
): string {
  const byLabel = new Map(Object.entries(fields).map(([k, label]) => [label, values[k as ContractField]]));
  return String(text).replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (whole, label: string) => byLabel.get(label) ?? whole);
}

const zTemplateText = {
  title: z
    .string({ error: ContractMsg.title })
    .trim()
    .min(1, ContractMsg.title)
    .max(CONTRACT_TITLE_MAX, `合同标题不能超过${CONTRACT_TITLE_MAX}个字符`),
  body: z
    .string({ error: ContractMsg.body })
    .trim()
    .min(1, ContractMsg.body)
    .max(CONTRACT_BODY_MAX, `合同正文不能超过${CONTRACT_BODY_MAX}个字符`)
    .superRefine((body, ctx) => {
      const problem = contractFieldProblem(body, CONTRACT_FIELD_LABELS);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
};

/** A version of the template; `version` 1 with `createdAt` null: the default, never saved. */
export const zContractTemplate = z.object({
  version: z.number().int(),
  title: z.string(),
  body: z.string(),
  createdAt: z.string().nullable(),
  createdByName: z.string().nullable(),
});
export type ContractTemplate = z.infer<typeof zContractTemplate>;

export const queryContractTemplate = defineCall({
  path: `${STORE_API}/query/contract/template`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ version: zId('请选择合同版本').optional() }).loose(),
  res: z.object({
    /** The version asked for (none: the one in force). */
    template: zContractTemplate,
    /** The version in force (the highest). */
    current: z.number().int(),
    /** The studio's name as its licence says (经营者名称); empty: the store's name is used. */
    licenceName: z.string(),
    /** Every saved version, newest first, with how many cards were sold under it. */
    versions: z.array(
      z.object({
        version: z.number().int(),
        title: z.string(),
        createdAt: z.string(),
        createdByName: z.string().nullable(),
        cards: z.number().int(),
      }),
    ),
  }),
  summary: '合同模板：在用的版本（或指定版本）的标题和正文、经营者名称，以及历史版本和各版本售出的卡数',
  example: {},
  errors: fails.notFound('合同版本'),
});

export const updateContractTemplate = defineCall({
  path: `${STORE_API}/update/contract/template`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    ...zTemplateText,
    licenceName: z.string().trim().max(CONTRACT_LICENCE_MAX, ContractMsg.licence),
  }),
  res: z.object({ version: z.number().int() }),
  summary: '保存合同模板：标题或正文有变化时生成新版本（已售的卡仍按其售出时的版本）；经营者名称随时可改',
  example: { title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY, licenceName: '某某健身服务有限公司' },
  errors: fails.badRequest(contractFieldProblem('{{折扣}}', CONTRACT_FIELD_LABELS)),
});

/** A card's contract: the version its sale named, filled with the sale's terms. */
export const queryCardContract = defineCall({
  path: `${STORE_API}/query/card/contract`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: z
    .object({
      version: z.number().int(),
      title: z.string(),
      text: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
  idFields: ['mcId'],
  summary: '一张会员卡的合同：售卡时在用的合同版本，填入这次售卡的条款（导入的卡没有合同，答 null）',
  example: { mcId: 1 },
  errors: fails.notFound('会员卡'),
});

export const contractCalls = [queryContractTemplate, updateContractTemplate, queryCardContract] as const;
