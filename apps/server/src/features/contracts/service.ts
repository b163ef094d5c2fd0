import {
  amountText,
  type CardContract,
  type ContractSignMethod,
  CARD_ACTIVATION_NAMES,
  CONTRACT_UNSIGNED_SETTING,
  CONTRACT_FIELDS,
  type ContractField,
  type ParsedReqOf,
  type ResOf,
  renderContract,
  type queryContractTemplate,
  type updateContractTemplate,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { PayloadOf } from '../../lib/events.ts';
import { requireStoreById } from '../../lib/store-scope.ts';
import { storeNow } from '../../lib/time.ts';
import {
  type cardSold,
  loadCardLifeSetting,
  productForSale,
  requireMemberCard,
  saleActivation,
} from '../cards/public.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import * as repo from './repository.ts';

/**
 * 电子合同 (issue 45, item 1). Rules, each here once:
 * - the template in force is the store's highest version; until one is written, the default text is
 *   version 1 (written with the manager's first save or the first sale);
 * - saving a changed title or text makes a new version; a sale's contract keeps the version it named;
 * - a sale's terms are filled at the sale (the product, price, balance and rules as they were then);
 *   the buyer's name and mobile are read when the contract is shown.
 */

const LICENCE = 'contract.licence';

export type Terms = Omit<Record<ContractField, string>, 'member' | 'mobile'>;

export async function contractTemplate(
  ctx: CallCtx,
  version: number | undefined,
): Promise<ResOf<typeof queryContractTemplate>> {
  const storeId = ctx.store.id;
  const [current, versions, licenceName, unsigned] = await Promise.all([
    repo.currentTemplate(ctx.db, storeId),
    repo.versionsWithCards(ctx.db, storeId),
    getSetting(ctx.db, storeId, LICENCE),
    getSetting(ctx.db, storeId, CONTRACT_UNSIGNED_SETTING),
  ]);
  const shown = version === undefined ? current : await repo.templateVersion(ctx.db, storeId, version);
  if (!shown) throw notFound('合同版本');
  const { id: _id, ...template } = shown;
  return {
    template,
    current: current.version,
    licenceName: licenceName ?? '',
    unsignedMayBook: unsigned !== '0',
    versions: versions.map((v) => ({
      version: Number(v.version),
      title: v.title,
      createdAt: v.createdAt,
      createdByName: v.createdByName,
      cards: Number(v.cards ?? 0),
    })),
  };
}

/** The manager's save (in the call's transaction): a changed title or text is a new version. */
export async function saveContractTemplate(ctx: CallCtx, input: ParsedReqOf<typeof updateContractTemplate>) {
  const storeId = ctx.store.id;
  const current = await repo.currentTemplate(ctx.db, storeId);
  let version = current.version;
  const changed = current.id === null || current.title !== input.title || current.body !== input.body;
  if (changed) {
    version = current.id === null ? 1 : current.version + 1;
    const made = await repo.insertTemplate(ctx.db, {
      storeId,
      version,
      title: input.title,
      body: input.body,
      createdAt: storeNow(ctx),
      createdBy: ctx.staff.id,
    });
    if (made === null) throw conflict('合同模板刚被修改，请刷新后再保存');
  }
  await putSetting(ctx.db, storeId, LICENCE, input.licenceName);
  if (input.unsignedMayBook !== undefined) {
    await putSetting(ctx.db, storeId, CONTRACT_UNSIGNED_SETTING, input.unsignedMayBook ? '1' : '0');
  }
  audit(ctx.db, {
    kind: 'settings',
    target: `合同模板（第${version}版${changed ? '，新版本' : ''}）`,
    ...(input.unsignedMayBook === undefined
      ? {}
      : { after: { 未签约的卡可以预约: input.unsignedMayBook ? '是' : '否' } }),
  });
  return { version };
}

/** The template in force as a written row (the default written as version 1 the first time). */
async function writtenTemplate(tx: Executor, storeId: number, now: string) {
  const current = await repo.currentTemplate(tx, storeId);
  if (current.id !== null) return current;
  await repo.insertTemplate(tx, {
    storeId,
    version: 1,
    title: current.title,
    body: current.body,
    createdAt: now,
    createdBy: null,
  });
  return repo.currentTemplate(tx, storeId);
}

const yuan = (fen: number) => `${(fen / 100).toFixed(2)} 元`;

type Product = NonNullable<Awaited<ReturnType<typeof productForSale>>>;

/** The sale's terms in words, as the contract fills them (a card sold, or one about to be: the preview). */
async function termsOf(
  tx: Executor,
  storeId: number,
  p: Product,
  card: { expireTime: string | null; validDays: number | null; totalCount: number },
  paid: number,
  now: string,
): Promise<Terms> {
  const [store, licence, life] = await Promise.all([
    requireStoreById(tx, storeId),
    getSetting(tx, storeId, LICENCE),
    loadCardLifeSetting(tx, storeId),
  ]);
  const period = p.bigType === 1 && p.perCount === 0;
  const kind = p.bigType === 1 ? (period ? '期限卡' : '次卡') : '储值卡';
  const validity = card.expireTime
    ? `至 ${card.expireTime.slice(0, 10)}`
    : card.validDays
      ? `开卡后 ${card.validDays} 天`
      : '长期有效';
  const activation =
    p.activation === 'date'
      ? `${CARD_ACTIVATION_NAMES.date}（${p.activationDate ?? ''}）`
      : p.activation === 'first_class'
        ? `${CARD_ACTIVATION_NAMES.first_class}（最迟购卡后 ${p.activateWithinDays} 天自动开卡）`
        : CARD_ACTIVATION_NAMES.sale;
  const limit = (n: number | null, unit: string) => (n === null ? '不限' : `${n}${unit}`);
  const leave = p.leaveAllowed
    ? `可请假：次数${limit(p.leaveTimes, '次')}，每次最多${limit(p.leaveDaysMax, '天')}，累计最多${limit(p.leaveDaysTotal, '天')}；请假期间不能预约，有效期顺延请假天数。`
    : '本卡不可请假。';
  const refund =
    `乙方可申请退卡，按未使用部分占比退还实付金额` +
    (p.refundFeePercent > 0 ? `，并扣除实付金额的 ${p.refundFeePercent}% 作为手续费` : '，不收手续费') +
    '（金额按分计算，不足 1 分的部分舍去）。';
  return {
    studio: store.name,
    licence: licence || store.name,
    product: p.cardName,
    cardKind: kind,
    price: yuan(paid),
    amount: period ? '有效期内不限次数' : amountText(p.bigType, card.totalCount),
    validity,
    activation,
    stores: store.name,
    leave,
    transfer: '乙方可将本卡转让给他人，转让须到店办理，门店可按公示标准收取手续费。',
    refund,
    coolingOff: String(life.coolingOffDays),
    saleDate: now.slice(0, 10),
  };
}

/** The sale's terms of a card just written. */
async function termsOfSale(tx: Executor, e: PayloadOf<typeof cardSold>): Promise<Terms> {
  const card = await requireMemberCard(tx, e.storeId, e.memberCardId);
  const p = await productForSale(tx, e.storeId, card.cardId);
  if (!p) throw notFound('卡种');
  return termsOf(tx, e.storeId, p, card, e.paid, e.now);
}

/**
 * The contract a member reads before buying a product online: the version in force filled with the
 * terms the sale would write now (its online price, balance and validity) and the member.
 */
export async function contractPreview(ctx: CallCtx, productId: number) {
  const p = await productForSale(ctx.db, ctx.store.id, productId);
  if (!p || p.deleted) throw notFound('卡种');
  const now = storeNow(ctx);
  const start = saleActivation(p, now, null);
  const card = {
    expireTime: start?.expireTime ?? null,
    validDays: start?.validDays ?? null,
    totalCount: p.totalCount ?? 0,
  };
  const [template, terms] = await Promise.all([
    repo.currentTemplate(ctx.db, ctx.store.id),
    termsOf(ctx.db, ctx.store.id, p, card, p.onlinePrice, now),
  ]);
  const values = { ...terms, member: ctx.member.name, mobile: ctx.member.mobile };
  return {
    version: template.version,
    title: template.title,
    text: renderContract(template.body, values, CONTRACT_FIELDS),
  };
}

/** A card sold (desk or online, in the sale's transaction): its contract names the version in force. */
export async function contractOnSale(tx: Executor, e: PayloadOf<typeof cardSold>): Promise<void> {
  const template = await writtenTemplate(tx, e.storeId, e.now);
  // Signed online before paying: written signed (手机验证码); sealed (PDF, hashes) right after the sale.
  const signed = e.signature
    ? {
        signedAt: e.signature.at,
        signMethod: 'sms',
        signerId: e.memberId,
        signIp: e.signature.ip,
        signUa: e.signature.ua,
      }
    : {};
  await repo.insertCardContract(tx, {
    storeId: e.storeId,
    memberCardId: e.memberCardId,
    memberId: e.memberId,
    templateId: template.id!,
    terms: JSON.stringify(await termsOfSale(tx, e)),
    createdAt: e.now,
    ...signed,
  });
}

/** The contract's text: its version filled with the sale's terms and the buyer (name and mobile as they are now). */
export const filledText = (c: repo.ContractRow) =>
  renderContract(
    c.body,
    { ...(JSON.parse(c.terms) as Terms), member: c.memberName, mobile: c.mobile },
    CONTRACT_FIELDS,
  );

/** A card's contract as shown: its text and its state (待签约, or 已签约 with who, how, when, from where). */
export function contractView(c: repo.ContractRow): CardContract {
  return {
    mcId: Number(c.memberCardId),
    version: Number(c.version),
    title: c.title,
    text: filledText(c),
    createdAt: c.createdAt,
    status: c.signedAt ? 'signed' : 'pending',
    signedAt: c.signedAt,
    signMethod: (c.signMethod as ContractSignMethod | null) ?? null,
    signerName: c.signedAt ? c.memberName : null,
    signIp: c.signIp,
    pdfSha256: c.pdfSha256,
  };
}
