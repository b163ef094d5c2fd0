import crypto from 'node:crypto';
import fs from 'node:fs';
import { ErrorCode } from '@studio/contract';
import { AppError } from '../../lib/errors.ts';

/**
 * The signed contract as a PDF (pdfkit, a CJK font from the config) and its seal. The rendering is
 * deterministic: the same contract and signature give the same bytes (the document's dates are the
 * signing time, its file id is made from them, pdfkit's font subset tags are not random), so a stored
 * PDF can be checked by rendering it again as well as by its hash.
 */

export interface SignedContract {
  title: string;
  /** The template filled with the sale's terms and the buyer. */
  text: string;
  version: number;
  signerName: string;
  /** 手机验证码 / 扫码签署 / 平板手写. */
  methodLabel: string;
  /** Server time of the signature, store-local `YYYY-MM-DD HH:mm:ss`. */
  signedAt: string;
  timezone: string;
  ip: string;
  /** The drawn signature (平板手写), PNG. */
  image: Buffer | null;
}

/** The font file's bytes, read once per path (a missing file: a clear message, and asked again next time). */
const fonts = new Map<string, Buffer>();
function fontBytes(path: string): Buffer {
  const kept = fonts.get(path);
  if (kept) return kept;
  if (!fs.existsSync(path)) {
    throw new AppError(
      503,
      `合同 PDF 的中文字体文件不存在（${path}），请安装 fonts-noto-cjk 或设置 CONTRACT_FONT`,
      ErrorCode.UNAVAILABLE,
    );
  }
  const bytes = fs.readFileSync(path);
  fonts.set(path, bytes);
  return bytes;
}

/** Renders the signed contract: title, the filled text, then the signature line (and the drawn image). */
export async function renderContractPdf(c: SignedContract, font: { path: string; name: string }): Promise<Buffer> {
  const bytes = fontBytes(font.path);
  // Loaded where a PDF is rendered, not at the server's start (pdfkit is large and rarely needed).
  const { default: PDFDocument } = await import('pdfkit');
  const at = new Date(`${c.signedAt.replace(' ', 'T')}Z`);
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: {
        Title: c.title,
        Author: c.signerName,
        Producer: 'studio',
        Creator: 'studio',
        CreationDate: at,
        ModDate: at,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (b: Buffer) => chunks.push(b));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      doc.registerFont('cjk', bytes, font.path.endsWith('.ttc') ? font.name : undefined);
    } catch {
      reject(new AppError(503, `合同 PDF 的中文字体无法使用（${font.path} ${font.name}）`, ErrorCode.UNAVAILABLE));
      return;
    }
    doc.font('cjk');
    doc.fontSize(18).text(c.title, { align: 'center' });
    doc.fontSize(9).fillColor('#666').text(`合同版本：第 ${c.version} 版`, { align: 'center' });
    doc.moveDown();
    doc.fillColor('#000').fontSize(11).text(c.text, { lineGap: 4 });
    doc.moveDown(2);
    doc.fontSize(12).text('签署信息');
    doc
      .fontSize(10)
      .text(`签署人（乙方）：${c.signerName}`)
      .text(`签署方式：${c.methodLabel}`)
      .text(`签署时间：${c.signedAt}（${c.timezone}，服务器时间）`)
      .text(`签署地址：${c.ip}`);
    if (c.image) {
      doc.moveDown(0.5).text('乙方签名：');
      doc.image(c.image, { fit: [220, 90] });
    }
    doc.end();
  });
}

/** SHA-256 of bytes or text, hex. */
export const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

/** JSON with every object's keys sorted (the same fields always give the same text). */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The seal of a signed contract: SHA-256 over its PDF's hash and its fields in canonical JSON. */
export const sealOf = (pdfSha256: string, fields: object) => sha256(`${pdfSha256}\n${canonicalJson(fields)}`);
