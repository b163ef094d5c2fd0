import { CONTRACT_DEFAULT_BODY, CONTRACT_DEFAULT_TITLE } from '@studio/contract';
import type { Executor } from '../../db/index.ts';

/** 电子合同's tables: the store's template versions and each sale's contract. */

export interface TemplateRow {
  /** null: the store never saved one nor sold a card since: the default, version 1, not yet written. */
  id: number | null;
  version: number;
  title: string;
  body: string;
  createdAt: string | null;
  createdByName: string | null;
}

const DEFAULT: TemplateRow = {
  id: null,
  version: 1,
  title: CONTRACT_DEFAULT_TITLE,
  body: CONTRACT_DEFAULT_BODY,
  createdAt: null,
  createdByName: null,
};

const templates = (ex: Executor, storeId: number) =>
  ex
    .selectFrom('contractTemplate as ct')
    .leftJoin('staff as s', 's.id', 'ct.createdBy')
    .select(['ct.id', 'ct.version', 'ct.title', 'ct.body', 'ct.createdAt', 's.name as createdByName'])
    .where('ct.storeId', '=', storeId);

const templateOf = (r: {
  id: number;
  version: number;
  title: string;
  body: string;
  createdAt: string;
  createdByName: string | null;
}): TemplateRow => ({
  ...r,
  id: Number(r.id),
  version: Number(r.version),
});

/** The template in force: the store's highest version, or the default as version 1. */
export async function currentTemplate(ex: Executor, storeId: number): Promise<TemplateRow> {
  const row = await templates(ex, storeId).orderBy('ct.version', 'desc').limit(1).executeTakeFirst();
  return row ? templateOf(row) : DEFAULT;
}

/** One version of the store's template; the default for version 1 while none is written; else undefined. */
export async function templateVersion(
  ex: Executor,
  storeId: number,
  version: number,
): Promise<TemplateRow | undefined> {
  const row = await templates(ex, storeId).where('ct.version', '=', version).executeTakeFirst();
  if (row) return templateOf(row);
  return version === 1 && (await currentTemplate(ex, storeId)).id === null ? DEFAULT : undefined;
}

/** Writes a version; null when that version exists already (another save or sale wrote it first). */
export async function insertTemplate(
  ex: Executor,
  row: { storeId: number; version: number; title: string; body: string; createdAt: string; createdBy: number | null },
): Promise<number | null> {
  const made = await ex
    .insertInto('contractTemplate')
    .values(row)
    .onConflict((oc) => oc.columns(['storeId', 'version']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return made ? Number(made.id) : null;
}

/** Every written version, newest first, with the cards sold under it. */
export function versionsWithCards(ex: Executor, storeId: number) {
  return templates(ex, storeId)
    .select((eb) =>
      eb
        .selectFrom('cardContract as cc')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('cc.templateId', '=', 'ct.id')
        .as('cards'),
    )
    .orderBy('ct.version', 'desc')
    .execute();
}

/** What a signature fixes on a contract (the seal, pdf and its hashes, comes with it or right after). */
export interface Signature {
  signedAt: string;
  signMethod: string;
  signerId: number;
  signIp: string;
  signUa: string;
  signaturePng: Buffer | null;
}
export interface Seal {
  pdf: Buffer;
  pdfSha256: string;
  sealSha256: string;
}

export function insertCardContract(
  ex: Executor,
  row: {
    storeId: number;
    memberCardId: number;
    memberId: number;
    templateId: number;
    terms: string;
    createdAt: string;
  } & Partial<Signature>,
) {
  return ex.insertInto('cardContract').values(row).execute();
}

/**
 * Contracts with their template, their buyer's name and mobile and the card's holder now
 * (`holderId`: the buyer, or whom the card was transferred to).
 */
function contractRows(ex: Executor) {
  return ex
    .selectFrom('cardContract as cc')
    .innerJoin('contractTemplate as ct', 'ct.id', 'cc.templateId')
    .innerJoin('member as m', 'm.id', 'cc.memberId')
    .innerJoin('memberCard as hmc', 'hmc.id', 'cc.memberCardId')
    .select([
      'hmc.memberId as holderId',
      'cc.id',
      'cc.storeId',
      'cc.memberCardId',
      'cc.memberId',
      'cc.templateId',
      'ct.version',
      'ct.title',
      'ct.body',
      'cc.terms',
      'cc.createdAt',
      'cc.signedAt',
      'cc.signMethod',
      'cc.signerId',
      'cc.signIp',
      'cc.signUa',
      'cc.signaturePng',
      'cc.pdfSha256',
      'cc.sealSha256',
      'm.name as memberName',
      'm.mobile',
    ]);
}

/** A card's contract (`contractRows`); undefined when it has none. */
export function cardContractOf(ex: Executor, storeId: number, memberCardId: number) {
  return contractRows(ex)
    .where('cc.storeId', '=', storeId)
    .where('cc.memberCardId', '=', memberCardId)
    .executeTakeFirst();
}

/** Every signed contract (of a store, or of all) with its stored PDF, in one read: the invariant checker's. */
export function signedContracts(ex: Executor, storeId?: number) {
  return contractRows(ex)
    .select('cc.pdf')
    .where('cc.signedAt', 'is not', null)
    .$if(storeId !== undefined, (q) => q.where('cc.storeId', '=', storeId!))
    .orderBy('cc.id')
    .execute();
}

export type ContractRow = NonNullable<Awaited<ReturnType<typeof cardContractOf>>>;

/** A contract's stored PDF (null: not sealed yet). */
export async function contractPdf(ex: Executor, id: number): Promise<Buffer | null> {
  const row = await ex.selectFrom('cardContract').select('pdf').where('id', '=', id).executeTakeFirst();
  return row?.pdf ? Buffer.from(row.pdf) : null;
}

/** Signs a 待签约 contract (and seals it) in one guarded UPDATE; false when it was signed already. */
export async function signContract(ex: Executor, id: number, s: Signature & Seal): Promise<boolean> {
  const res = await ex
    .updateTable('cardContract')
    .set(s)
    .where('id', '=', id)
    .where('signedAt', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Seals a signed contract once (its PDF and hashes; the database refuses any later change). */
export async function sealContract(ex: Executor, id: number, s: Seal): Promise<boolean> {
  const res = await ex
    .updateTable('cardContract')
    .set(s)
    .where('id', '=', id)
    .where('signedAt', 'is not', null)
    .where('pdfSha256', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Keeps a 待签约 contract's signing link (the token's hash, its expiry in ms). */
export async function setSignToken(ex: Executor, id: number, tokenHash: string, expires: number) {
  await ex
    .updateTable('cardContract')
    .set({ signToken: tokenHash, signTokenExpires: String(expires) })
    .where('id', '=', id)
    .where('signedAt', 'is', null)
    .execute();
}

/** The card whose contract's live signing link has this token hash (undefined: none, or expired). */
export async function cardOfSignToken(ex: Executor, storeId: number, tokenHash: string, now: number) {
  const row = await ex
    .selectFrom('cardContract')
    .select(['memberCardId', 'signTokenExpires'])
    .where('storeId', '=', storeId)
    .where('signToken', '=', tokenHash)
    .executeTakeFirst();
  return row && Number(row.signTokenExpires) > now ? Number(row.memberCardId) : undefined;
}
