/**
 * A text file's characters: UTF-8 (a byte-order mark dropped) when the bytes are valid UTF-8, else
 * GBK, which is what Excel and Alipay in China save CSV files in.
 */
export function decodeText(data: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('gbk').decode(data);
  }
}
