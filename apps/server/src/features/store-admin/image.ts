import { LOGO_MAX_BYTES, StoreAdminMsg } from '@studio/contract';
import { badRequest } from '../../lib/errors.ts';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

const DECLARED = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp']);
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The real type of an image from its first bytes (never from the declared type). */
export function sniffImage(bytes: Uint8Array): ImageMime | null {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  // RIFF....WEBP
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

/**
 * Decodes `data:image/png;base64,...` into bytes and their sniffed type. Refuses (400) anything that
 * is not a base64 data URL, declares or contains another type than PNG/JPEG/WebP, or exceeds 1 MiB.
 */
export function decodeImageDataUrl(dataUrl: string): { mime: ImageMime; bytes: Buffer } {
  const m = DATA_URL.exec(dataUrl.trim());
  if (!m || !m[2].toLowerCase().split(';').includes('base64')) throw badRequest(StoreAdminMsg.imageDataUrl);
  if (!DECLARED.has(m[1].toLowerCase())) throw badRequest(StoreAdminMsg.imageType);
  const text = m[3].replace(/\s+/g, '');
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw badRequest(StoreAdminMsg.imageBase64);
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const size = (text.length / 4) * 3 - padding;
  if (size === 0) throw badRequest(StoreAdminMsg.imageEmpty);
  if (size > LOGO_MAX_BYTES) throw badRequest(StoreAdminMsg.imageTooLarge);
  const bytes = Buffer.from(text, 'base64');
  const mime = sniffImage(bytes);
  if (!mime) throw badRequest(StoreAdminMsg.imageType);
  return { mime, bytes };
}
