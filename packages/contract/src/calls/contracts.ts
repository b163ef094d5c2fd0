// 电子合同 (issue 45, item 1): the store's contract template, versioned, with fields filled per sale.
// The manager edits the text (合同模板); every card sale (desk or online; not an import) names the
// version in force at the sale, and the card's contract reads as that version filled with the sale's
// terms. Server: features/contracts.
import { z } from 'zod';
import { zId } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { MEMBER_API, MemberMsg } from './member-channel.ts';

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

/** How a contract was signed (issue 45, item 2). */
export const CONTRACT_SIGN_METHODS = {
  sms: '手机验证码',
  qr: '扫码签署',
  tablet: '平板手写',
} as const;
export type ContractSignMethod = keyof typeof CONTRACT_SIGN_METHODS;

/** A drawn signature: a PNG data URL of at most this many characters (about 150 KB of image). */
export const CONTRACT_SIGNATURE_MAX = 200_000;
/** A drawn signature's largest width and height in pixels. */
export const CONTRACT_SIGNATURE_MAX_PX = 2000;
/** How long the desk's signing QR stays valid (minutes). */
export const CONTRACT_LINK_MINUTES = 30;

export const ContractMsg = {
  title: '请填写合同标题',
  body: '请填写合同正文',
  licence: '经营者名称不能超过100个字符',
  agree: '请先阅读合同并勾选「我已阅读并同意」',
  code: '请输入6位短信验证码',
  badCode: '验证码不正确或已过期，请重新获取',
  signed: '该合同已签署，不能再次签署',
  none: '该会员卡没有电子合同（导入的卡）',
  unsigned: '该合同尚未签署，签署后才能下载',
  link: '签约链接无效或已过期，请让前台重新出示二维码',
  image: '请先在签名板上签名',
  imageFormat: '签名图片格式不正确，请重新签名',
  imageSize: `签名图片太大（不能超过${Math.round(CONTRACT_SIGNATURE_MAX / 1000)}K），请重新签名`,
  noSms: '本店暂未开通短信验证码，请到前台在平板上手写签署合同',
  smsCap: '本店今天的短信验证码已发完，请到前台在平板上手写签署合同',
} as const;

/** The store setting 未签约的卡可以预约: '0' no (a 待签约 card may not book); anything else (default) yes. */
export const CONTRACT_UNSIGNED_SETTING = 'contract.unsignedMayBook';

/** 未签约的卡可以预约 (store setting, default yes). */
const zUnsignedMayBook = z.boolean({ error: '请选择未签约的卡是否可以预约' });

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
    /** 未签约的卡可以预约 (default yes). */
    unsignedMayBook: z.boolean(),
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
    /** 未签约的卡可以预约 (left out: unchanged). */
    unsignedMayBook: zUnsignedMayBook.optional(),
  }),
  res: z.object({ version: z.number().int() }),
  summary: '保存合同模板：标题或正文有变化时生成新版本（已售的卡仍按其售出时的版本）；经营者名称随时可改',
  example: { title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY, licenceName: '某某健身服务有限公司' },
  errors: fails.badRequest(contractFieldProblem('{{折扣}}', CONTRACT_FIELD_LABELS)),
});

/** A card's contract with its state: 待签约 (pending) until signed, then 已签约 with who, how, when, from where. */
export const zCardContract = z.object({
  mcId: z.number().int(),
  version: z.number().int(),
  title: z.string(),
  text: z.string(),
  createdAt: z.string(),
  status: z.enum(['pending', 'signed']),
  signedAt: z.string().nullable(),
  signMethod: z.enum(Object.keys(CONTRACT_SIGN_METHODS) as [ContractSignMethod, ...ContractSignMethod[]]).nullable(),
  signerName: z.string().nullable(),
  signIp: z.string().nullable(),
  /** SHA-256 of the signed PDF (hex). */
  pdfSha256: z.string().nullable(),
});
export type CardContract = z.infer<typeof zCardContract>;

/** A card's contract: the version its sale named, filled with the sale's terms. */
export const queryCardContract = defineCall({
  path: `${STORE_API}/query/card/contract`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: zCardContract.nullable(),
  idFields: ['mcId'],
  summary:
    '一张会员卡的合同：售卡时在用的合同版本，填入这次售卡的条款，及其签署状态（待签约 / 已签约：签署人、方式、时间、地址、PDF 的 SHA-256；导入的卡没有合同，答 null）',
  example: { mcId: 1 },
  errors: fails.notFound('会员卡'),
});

/** A signed contract's PDF as a download: its file name and bytes (base64). */
const zContractPdf = z.object({ fileName: z.string(), pdf: z.string() });

/** The two ways to prove the member's intent: the tick, then a code texted to their mobile. */
const zAgreeAndCode = {
  agree: z.literal(true, { error: ContractMsg.agree }),
  code: z
    .string({ error: ContractMsg.code })
    .trim()
    .regex(/^\d{6}$/, ContractMsg.code),
};

/** A drawn signature as the canvas gives it: a PNG data URL. */
const zSignatureImage = z
  .string({ error: ContractMsg.image })
  .min(1, ContractMsg.image)
  .max(CONTRACT_SIGNATURE_MAX, ContractMsg.imageSize)
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, ContractMsg.imageFormat);

const contractErrors = [...fails.notFound('会员卡'), { status: 409 as const, msg: ContractMsg.none }];

/** The desk's QR for the member to sign on their phone (the contract shown for signing: 操作日志). */
export const createCardContractLink = defineCall({
  path: `${STORE_API}/create/card/contract/link`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: z.object({ url: z.string(), expireTime: z.string() }),
  idFields: ['mcId'],
  summary: `会员卡合同的签约二维码：会员用手机打开（须以该会员登录），阅读后勾选同意并用短信验证码签署；${CONTRACT_LINK_MINUTES}分钟内有效`,
  example: { mcId: 1 },
  errors: [...contractErrors, { status: 409 as const, msg: ContractMsg.signed }],
});

/** 平板手写: the member signs on the desk's tablet; the drawing is the signature. */
export const signCardContract = defineCall({
  path: `${STORE_API}/sign/card/contract`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡'), image: zSignatureImage }),
  res: zCardContract,
  idFields: ['mcId'],
  summary: '平板手写签署会员卡合同：会员在前台的平板上手写签名（PNG），合同生成 PDF 并计算 SHA-256，签署后不可更改',
  example: { mcId: 1, image: 'data:image/png;base64,iVBORw0KGgo=' },
  errors: [
    ...contractErrors,
    { status: 409 as const, msg: ContractMsg.signed },
    { status: 400 as const, msg: ContractMsg.imageFormat },
    { status: 400 as const, msg: ContractMsg.imageSize },
  ],
});

/** The desk's download of a card's signed contract (recorded in 操作日志). */
export const downloadCardContract = defineCall({
  path: `${STORE_API}/download/card/contract`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: zContractPdf,
  idFields: ['mcId'],
  summary: '下载会员卡已签署的合同 PDF（base64）；每次下载记入操作日志',
  example: { mcId: 1 },
  errors: [...contractErrors, { status: 409 as const, msg: ContractMsg.unsigned }],
});

/** 会员端: the contract of a card on sale, filled as it would be sold to the member now (read before paying). */
export const memberContractPreview = defineCall({
  path: `${MEMBER_API}/query/contract/preview`,
  kind: 'read',
  auth: 'member',
  req: z.object({ productId: zId('请选择卡种') }),
  res: z.object({ version: z.number().int(), title: z.string(), text: z.string() }),
  summary: '会员端：购卡前阅读的合同（在用版本，填入该卡种和会员的条款）',
  example: { productId: 1 },
  errors: fails.notFound('卡种'),
});

/** 会员端: a code texted to the member's mobile to sign a contract (before buying a product, or a card's 待签约 one). */
export const memberSendContractCode = defineCall({
  path: `${MEMBER_API}/send/contract/code`,
  kind: 'write',
  auth: 'member',
  req: z.object({ productId: zId('请选择卡种').optional(), mcId: zId('请选择会员卡').optional() }),
  res: z.null(),
  summary: '会员端：发送签署合同的短信验证码到本人手机（购卡前，或签署待签约的会员卡合同）',
  example: { productId: 1 },
  errors: [
    ...fails.notFound('卡种', '会员卡'),
    { status: 409 as const, msg: ContractMsg.signed },
    { status: 409 as const, msg: ContractMsg.noSms },
    { status: 429 as const, msg: ContractMsg.smsCap },
    { status: 429 as const, msg: MemberMsg.tooSoon },
    { status: 429 as const, msg: MemberMsg.tooMany },
  ],
});

/** 会员端: a card's contract (by the card, or by the desk's QR token), the member's own only. */
export const memberCardContract = defineCall({
  path: `${MEMBER_API}/query/card/contract`,
  kind: 'read',
  auth: 'member',
  req: z.object({ mcId: zId('请选择会员卡').optional(), token: z.string().max(300).optional() }),
  res: zCardContract,
  summary: '会员端：我的会员卡的合同（签约二维码打开时按链接找到），待签约或已签约',
  example: { mcId: 1 },
  errors: [...contractErrors, { status: 400 as const, msg: ContractMsg.link }],
});

/** 会员端: signs a card's 待签约 contract: the tick and the texted code. */
export const memberSignContract = defineCall({
  path: `${MEMBER_API}/sign/contract`,
  kind: 'write',
  auth: 'member',
  req: z.object({ mcId: zId('请选择会员卡'), ...zAgreeAndCode }),
  res: zCardContract,
  summary: '会员端：签署会员卡合同（勾选我已阅读并同意，输入短信验证码）；签署后生成 PDF，不可更改',
  example: { mcId: 1, agree: true, code: '123456' },
  errors: [
    ...contractErrors,
    { status: 400 as const, msg: ContractMsg.badCode },
    { status: 409 as const, msg: ContractMsg.signed },
  ],
});

/** 会员端: the member's download of their card's signed contract. */
export const memberDownloadContract = defineCall({
  path: `${MEMBER_API}/download/contract`,
  kind: 'read',
  auth: 'member',
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: zContractPdf,
  summary: '会员端：下载我的会员卡已签署的合同 PDF（base64）',
  example: { mcId: 1 },
  errors: [...contractErrors, { status: 409 as const, msg: ContractMsg.unsigned }],
});

export const contractCalls = [
  queryContractTemplate,
  updateContractTemplate,
  queryCardContract,
  createCardContractLink,
  signCardContract,
  downloadCardContract,
  memberContractPreview,
  memberSendContractCode,
  memberCardContract,
  memberSignContract,
  memberDownloadContract,
] as const;
