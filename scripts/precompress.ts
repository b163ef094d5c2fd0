/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every compressible
 * file of a built web app, so the server sends them as they are (`Accept-Encoding`) instead of
 * compressing per request. Files under 1 KB, and copies that would not be smaller, are skipped.
 *   node --import tsx scripts/precompress.ts apps/web/dist     (run by the web app's build)
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { COMPRESSIBLE } from '../apps/server/src/lib/compressible.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const PRECOMPRESS_MIN_BYTES = 1024;

function* filesOf(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesOf(p);
    else if (COMPRESSIBLE.test(e.name)) yield p;
  }
}

/** Compresses every compressible file under `dir`; answers the byte totals. */
export async function precompressDir(dir: string): Promise<{ files: number; raw: number; br: number; gzip: number }> {
  const totals = { files: 0, raw: 0, br: 0, gzip: 0 };
  await Promise.all(
    [...filesOf(dir)].map(async (file) => {
      const raw = fs.readFileSync(file);
      if (raw.length < PRECOMPRESS_MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzip(raw, { level: 9 }),
      ]);
      totals.files++;
      totals.raw += raw.length;
      if (br.length < raw.length) {
        fs.writeFileSync(`${file}.br`, br);
        totals.br += br.length;
      }
      if (gz.length < raw.length) {
        fs.writeFileSync(`${file}.gz`, gz);
        totals.gzip += gz.length;
      }
    }),
  );
  return totals;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const t = await precompressDir(dir);
  const kb = (n: number) => `${Math.round(n / 1024)} KB`;
  console.log(`precompressed ${t.files} files: ${kb(t.raw)} -> brotli ${kb(t.br)}, gzip ${kb(t.gzip)}`);
}
