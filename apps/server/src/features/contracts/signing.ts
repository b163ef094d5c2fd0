import crypto from 'node:crypto';
import {
  CONTRACT_LINK_MINUTES,
  CONTRACT_SIGN_METHODS,
  CONTRACT_SIGNATURE_MAX_PX,
  ContractMsg,
  type CardContract,
  type ContractSignMethod,
} from '@studio/contract';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import { audit, systemScope } from '../../lib/audit.ts';
import type { AppDeps, CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { localDateTime, storeNow } from '../../lib/time.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { requireMemberCard } from '../cards/public.ts';
import { publicBaseOf } from '../messaging/public.ts';
import { takeContractCode } from '../../auth/member-codes.ts';
import { renderContractPdf, sealOf, sha256 } from './pdf.ts';
import * as repo from './repository.ts';
import { contractView, filledText, type Terms } from './service.ts';

/**
 * Signing a card's contract (issue 45, item 2). Rules, each here once:
 * - a contract is 待签约 until signed, then 已签约: who (the buyer), how (CONTRACT_SIGN_METHODS),
 *   when (the server's time, store-local), from where (address, browser), the drawn image if any;
 * - a signature is sealed: the PDF rendered from the contract and the signature, its SHA-256, and
 *   the seal over that hash and the stored fields (`sealFields`); the database then refuses any change;
 * - the member proves intent with the tick and a code texted to their own mobile (online before
 *   paying, or on their phone through the desk's QR); at the desk, a drawing on the tablet;
 * - a member sees and signs only contracts of their own cards; a store only its own (404 otherwise).
 */

type Deps = Pick<AppDeps, 'db' | 'dialect' | 'config' | 'log'>;

/** The fields a seal covers: every stored fact of the contract and its signature (not the PDF, hashed apart). */
function sealFields(c: repo.ContractRow) {
  return {
    storeId: Number(c.storeId),
    memberCardId: Number(c.memberCardId),
    memberId: Number(c.memberId),
    templateId: Number(c.templateId),
    version: Number(c.version),
    title: c.title,
    body: c.body,
    terms: JSON.parse(c.terms) as Terms,
    createdAt: c.createdAt,
    signedAt: c.signedAt,
    signMethod: c.signMethod,
    signerId: c.signerId === null ? null : Number(c.signerId),
    signIp: c.signIp,
    signUa: c.signUa,
    signature: c.signaturePng ? sha256(Buffer.from(c.signaturePng)) : null,
  };
}

/** Renders and hashes a signed contract (outside any transaction: it takes a while). */
async function sealFor(deps: Deps, c: repo.ContractRow, timezone: string): Promise<repo.Seal> {
  const pdf = await renderContractPdf(
    {
      title: c.title,
      text: filledText(c),
      version: Number(c.version),
      signerName: c.memberName,
      methodLabel: CONTRACT_SIGN_METHODS[c.signMethod as ContractSignMethod] ?? '',
      signedAt: c.signedAt ?? '',
      timezone,
      ip: c.signIp ?? '',
      image: c.signaturePng ? Buffer.from(c.signaturePng) : null,
    },
    deps.config.contractFont,
  );
  const pdfSha256 = sha256(pdf);
  return { pdf, pdfSha256, sealSha256: sealOf(pdfSha256, sealFields(c)) };
}

/**
 * Whether a stored contract still is what was signed: its PDF's hash and its seal over the stored
 * fields. Answers the problems in words (empty: it verifies; a 待签约 one has nothing to verify).
 */
export function verifyContract(c: repo.ContractRow, pdf: Buffer | null): string[] {
  if (!c.signedAt) return [];
  if (!c.pdfSha256 || !c.sealSha256 || !pdf) return ['已签约但没有 PDF'];
  const problems: string[] = [];
  if (sha256(pdf) !== c.pdfSha256) problems.push('PDF 与签署时的 SHA-256 不符');
  if (sealOf(c.pdfSha256, sealFields(c)) !== c.sealSha256) problems.push('合同条款或签署信息与签署时不符');
  return problems;
}

/** A store's contract of a card, with its check that the card is the store's (404) and has one (409). */
async function contractOfCard(ex: Executor, storeId: number, memberCardId: number) {
  await requireMemberCard(ex, storeId, memberCardId);
  const c = await repo.cardContractOf(ex, storeId, memberCardId);
  if (!c) throw conflict(ContractMsg.none);
  return c;
}

/**
 * The contract of a card the member holds (the contract is the card's: a card transferred to them
 * brings it); another member's card, or a card of another store, is a 404.
 */
async function ownContract(ctx: CallCtx, memberCardId: number) {
  const c = await repo.cardContractOf(ctx.db, ctx.store.id, memberCardId);
  if (!c || Number(c.holderId) !== ctx.member.id) throw notFound('会员卡');
  return c;
}

/**
 * Signs a 待签约 contract: the seal rendered first (outside the transaction), then one guarded UPDATE
 * (a second signature at once: 409), with its entry in 操作日志.
 */
async function sign(
  ctx: CallCtx,
  c: repo.ContractRow,
  how: { method: ContractSignMethod; image: Buffer | null },
): Promise<CardContract> {
  if (c.signedAt) throw conflict(ContractMsg.signed);
  const signature: repo.Signature = {
    signedAt: storeNow(ctx),
    signMethod: how.method,
    signerId: Number(c.memberId),
    signIp: ctx.req.ip,
    signUa: String(ctx.req.headers['user-agent'] ?? '').slice(0, 300),
    signaturePng: how.image,
  };
  const signed = { ...c, ...signature };
  const seal = await sealFor(ctx, signed, ctx.store.timezone);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (!(await repo.signContract(tx, Number(c.id), { ...signature, ...seal }))) throw conflict(ContractMsg.signed);
    audit(tx, {
      kind: 'card',
      summary: `签署合同（${CONTRACT_SIGN_METHODS[how.method]}），PDF SHA-256 ${seal.pdfSha256.slice(0, 16)}…`,
      target: `合同 第${c.version}版`,
      targets: [
        { type: 'card', id: Number(c.memberCardId) },
        { type: 'member', id: Number(c.memberId) },
      ],
    });
  });
  return contractView({ ...signed, pdfSha256: seal.pdfSha256, sealSha256: seal.sealSha256 });
}

/**
 * Seals a contract signed but not yet sealed, by 系统: an online sale's, once the fulfilment's
 * transaction has committed (never inside it: rendering takes a second), and one shown before it was
 * sealed (`shown`). A failure (the font missing) is logged and answers undefined: the contract is
 * sealed when next shown (the desk's or the member's view) or downloaded.
 */
export async function sealUnsealed(
  deps: Deps,
  storeId: number,
  memberCardId: number,
): Promise<repo.ContractRow | undefined> {
  try {
    return await sealNow(deps, storeId, memberCardId);
  } catch (e) {
    deps.log.error({ err: e, storeId, memberCardId }, 'sealing the signed contract failed');
    return undefined;
  }
}

/** A contract as shown: one signed but not sealed yet is sealed first (a failure: shown unsealed, logged). */
async function shown(deps: Deps, c: repo.ContractRow): Promise<CardContract> {
  if (!c.signedAt || c.pdfSha256) return contractView(c);
  return contractView((await sealUnsealed(deps, Number(c.storeId), Number(c.memberCardId))) ?? c);
}

async function sealNow(deps: Deps, storeId: number, memberCardId: number): Promise<repo.ContractRow | undefined> {
  const c = await repo.cardContractOf(deps.db, storeId, memberCardId);
  if (!c?.signedAt || c.pdfSha256) return c;
  const store = await storeScopeById(deps.db, storeId);
  const seal = await sealFor(deps, c, store?.timezone ?? 'Asia/Shanghai');
  await inWriteTx(
    deps.db as Db,
    deps.dialect as Dialect,
    async (tx) => {
      if (!(await repo.sealContract(tx, Number(c.id), seal))) return;
      audit(tx, {
        summary: `合同已签署（${CONTRACT_SIGN_METHODS[c.signMethod as ContractSignMethod] ?? ''}），生成 PDF，SHA-256 ${seal.pdfSha256.slice(0, 16)}…`,
        target: `合同 第${c.version}版`,
        targets: [
          { type: 'card', id: memberCardId },
          { type: 'member', id: Number(c.memberId) },
        ],
      });
    },
    systemScope('电子合同', 'contract.seal', 'card', storeId),
  );
  return repo.cardContractOf(deps.db, storeId, memberCardId);
}

/** A signed contract's PDF as a download (sealed first if the sale's sealing did not finish). */
async function pdfOf(deps: Deps, c: repo.ContractRow) {
  if (!c.signedAt) throw conflict(ContractMsg.unsigned);
  const sealed = c.pdfSha256 ? c : await sealNow(deps, Number(c.storeId), Number(c.memberCardId));
  const pdf = sealed && (await repo.contractPdf(deps.db, Number(sealed.id)));
  if (!pdf) throw conflict(ContractMsg.unsigned);
  return { fileName: `合同-${c.title}-${c.memberCardId}.pdf`, pdf: pdf.toString('base64') };
}

// ---- the desk ----

/** A card's contract as the desk shows it (null for a card with none: imported, or sold before contracts). */
export async function deskContract(ctx: CallCtx, memberCardId: number): Promise<CardContract | null> {
  await requireMemberCard(ctx.db, ctx.store.id, memberCardId);
  const c = await repo.cardContractOf(ctx.db, ctx.store.id, memberCardId);
  return c ? shown(ctx, c) : null;
}

/** The desk's download of a card's signed contract: an entry in 操作日志. */
export async function staffDownload(ctx: CallCtx, memberCardId: number) {
  const c = await contractOfCard(ctx.db, ctx.store.id, memberCardId);
  const file = await pdfOf(ctx, c);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    audit(tx, {
      kind: 'card',
      summary: '下载已签署的合同 PDF',
      target: `合同 第${c.version}版`,
      targets: [{ type: 'card', id: memberCardId }],
    });
  });
  return file;
}

/** 平板手写: the drawn PNG, checked (a PNG of sensible size), is the signature. */
export async function signOnTablet(ctx: CallCtx, memberCardId: number, dataUrl: string) {
  const image = pngOf(dataUrl);
  const c = await contractOfCard(ctx.db, ctx.store.id, memberCardId);
  return sign(ctx, c, { method: 'tablet', image });
}

/** A PNG data URL's bytes: a real PNG header with a width and height within bounds, else 400. */
function pngOf(dataUrl: string): Buffer {
  const b = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  const magic = '89504e470d0a1a0a';
  if (b.length < 33 || b.subarray(0, 8).toString('hex') !== magic || b.subarray(12, 16).toString() !== 'IHDR') {
    throw badRequest(ContractMsg.imageFormat);
  }
  const w = b.readUInt32BE(16);
  const h = b.readUInt32BE(20);
  if (w < 1 || h < 1 || w > CONTRACT_SIGNATURE_MAX_PX || h > CONTRACT_SIGNATURE_MAX_PX) {
    throw badRequest(ContractMsg.imageFormat);
  }
  return b;
}

/**
 * The desk's QR: a link to the members' page with a random token naming the contract (its hash kept
 * on the row, 30 minutes); opening it the member must be signed in as the card's buyer.
 */
export async function signingLink(ctx: CallCtx, memberCardId: number) {
  const c = await contractOfCard(ctx.db, ctx.store.id, memberCardId);
  if (c.signedAt) throw conflict(ContractMsg.signed);
  const expires = Date.now() + CONTRACT_LINK_MINUTES * 60_000;
  const token = crypto.randomBytes(24).toString('base64url');
  const { base } = await publicBaseOf(ctx);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await repo.setSignToken(tx, Number(c.id), sha256(token), expires);
    audit(tx, {
      kind: 'card',
      summary: '出示合同签约二维码，请会员在手机上阅读并签署',
      target: `合同 第${c.version}版`,
      targets: [{ type: 'card', id: memberCardId }],
    });
  });
  return {
    url: `${base}/m/?store=${ctx.store.id}&sign=${token}`,
    expireTime: localDateTime(ctx.store.timezone, expires),
  };
}

// ---- the member ----

/** The member's card's contract, by the card or by the desk's QR token. */
export async function memberContract(ctx: CallCtx, input: { mcId?: number; token?: string }) {
  let mcId = input.mcId;
  if (input.token) {
    mcId = await repo.cardOfSignToken(ctx.db, ctx.store.id, sha256(input.token), Date.now());
    if (!mcId) throw badRequest(ContractMsg.link);
  }
  if (!mcId) throw notFound('会员卡');
  return shown(ctx, await ownContract(ctx, mcId));
}

/**
 * What a signing code is asked for (before it is texted, by features/member-channel): a product about
 * to be bought, or the member's own card's 待签约 contract (404 another's, 409 signed).
 */
export async function checkCodeTarget(ctx: CallCtx, input: { productId?: number; mcId?: number }) {
  if (input.mcId !== undefined) {
    const c = await ownContract(ctx, input.mcId);
    if (c.signedAt) throw conflict(ContractMsg.signed);
  } else if (input.productId === undefined) {
    throw notFound('卡种');
  }
}

/** The member signs their card's 待签约 contract: the tick (checked by the call) and the texted code. */
export async function memberSign(ctx: CallCtx, input: { mcId: number; code: string }) {
  const c = await ownContract(ctx, input.mcId);
  if (c.signedAt) throw conflict(ContractMsg.signed);
  if (!(await takeContractCode(ctx.db, ctx.member.id, input.code))) throw badRequest(ContractMsg.badCode);
  return sign(ctx, c, { method: 'qr', image: null });
}

/** The member's download of their own card's signed contract. */
export async function memberDownload(ctx: CallCtx, memberCardId: number) {
  return pdfOf(ctx, await ownContract(ctx, memberCardId));
}

/**
 * A member's signature before paying for a card online: the code texted to them, used once; answers
 * what the order keeps (when, from where) for the card's contract. 400 when the code is not right.
 */
export async function signatureBeforePaying(ctx: CallCtx, code: string | undefined): Promise<string> {
  if (!code || !(await takeContractCode(ctx.db, ctx.member.id, code))) throw badRequest(ContractMsg.badCode);
  return JSON.stringify({
    at: storeNow(ctx),
    ip: ctx.req.ip,
    ua: String(ctx.req.headers['user-agent'] ?? '').slice(0, 300),
  });
}
