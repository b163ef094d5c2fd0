/**
 * Runs every benchmark of this folder that exists (`npm run bench`), one after the other, shows
 * their output as it comes and ends with one table of every figure with its baseline.
 *   npm run bench                      all of them
 *   npm run bench -- booking memory    only those
 * Figures are read from the scripts' own lines: `<title> N req/s p50 X ms p99 Y ms ...` (bench/lib),
 * the template line `200-week run A s raw inserts B s ratio Rx`, and `RESULT {json}` lines.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Row {
  bench: string;
  db: string;
  measurement: string;
  value: string;
  p50?: string;
  p99?: string;
  baseline?: string;
  ratio?: string;
  note?: string;
}

const here = path.dirname(new URL(import.meta.url).pathname);
const wanted = process.argv.slice(2);
const benches = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts')
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((b) => !wanted.length || wanted.includes(b))
  .sort();

const REQ = /^\s*(.*?)\s+(\d+) req\/s\s+p50\s+([\d.]+) ms\s+p99\s+([\d.]+) ms(.*)$/;
const TEMPLATE = /^(\S+)\s+200-week run\s+([\d.]+ s)\s+raw inserts\s+([\d.]+ s)\s+ratio ([\d.]+x)(.*)$/;
/** A section label such as `SQLite:`, `PostgreSQL:` or `SQLite + statement cache:`. */
const DB = /^\s*((?:SQLite|PostgreSQL)[^:]*?):/;

/** `42% of bare (by cpu 63%)` out of the tail of a figure line, parentheses balanced. */
function ratioOf(extra: string): string | undefined {
  const at = extra.search(/\d+% of/);
  if (at < 0) return undefined;
  const s = extra.slice(at).trim();
  const open = s.split('(').length;
  const close = s.split(')').length;
  return close > open && s.endsWith(')') ? s.slice(0, -1) : s;
}

/** The figures of one benchmark's output. */
export function parse(bench: string, out: string): Row[] {
  const rows: Row[] = [];
  let db = 'SQLite';
  for (const line of out.split('\n')) {
    const dbMatch = DB.exec(line);
    if (dbMatch) db = dbMatch[1];
    if (line.startsWith('RESULT ')) {
      try {
        rows.push({ bench, db, ...(JSON.parse(line.slice(7)) as Partial<Row>) } as Row);
      } catch {
        // a malformed RESULT line is shown in the output above; nothing to tabulate
      }
      continue;
    }
    const t = TEMPLATE.exec(line);
    if (t) {
      rows.push({
        bench,
        db: t[1],
        measurement: '200-week template run',
        value: t[2],
        baseline: `raw inserts ${t[3]}`,
        ratio: t[4],
      });
      continue;
    }
    const r = REQ.exec(line);
    if (r) {
      const label = DB.exec(r[1]);
      const title = label ? r[1].slice(label[0].length).trim() : r[1];
      const rowDb = label ? label[1] : db;
      const extra = r[5].replace(/ok \d+\s+failed \d+/, '').trim();
      const okFailed = /ok (\d+)\s+failed (\d+)/.exec(r[5]);
      rows.push({
        bench,
        db: rowDb,
        measurement: title,
        value: `${r[2]} req/s`,
        p50: r[3],
        p99: r[4],
        ratio: ratioOf(extra),
        note: okFailed && okFailed[2] !== '0' ? `${okFailed[2]} failed` : undefined,
      });
    }
  }
  return rows;
}

function runOne(bench: string): Promise<{ out: string; code: number; seconds: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, `${bench}.ts`)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(d);
    });
    child.on('exit', (code) => resolve({ out, code: code ?? 1, seconds: Math.round((Date.now() - t0) / 1000) }));
  });
}

export function table(rows: Row[]): string {
  const cols: [keyof Row, string][] = [
    ['bench', 'bench'],
    ['db', 'db'],
    ['measurement', 'measurement'],
    ['value', 'result'],
    ['p50', 'p50 ms'],
    ['p99', 'p99 ms'],
    ['baseline', 'baseline'],
    ['ratio', 'vs baseline'],
    ['note', 'note'],
  ];
  const cells = rows.map((r) => cols.map(([k]) => String(r[k] ?? '')));
  const widths = cols.map(([, h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
  return [line(cols.map(([, h]) => h)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
  const all: Row[] = [];
  for (const b of benches) {
    console.log(`\n=== ${b} ===`);
    const { out, code, seconds } = await runOne(b);
    const rows = parse(b, out);
    if (code !== 0) {
      process.exitCode = 1;
      rows.push({ bench: b, db: '', measurement: '(script failed)', value: `exit ${code}` });
    } else if (!rows.length) {
      rows.push({ bench: b, db: '', measurement: '(no figures recognised: see its output above)', value: '' });
    }
    rows.at(-1)!.note = [rows.at(-1)!.note, `${seconds} s`].filter(Boolean).join('; ');
    all.push(...rows);
  }
  console.log(`\n=== summary (${new Date().toISOString()}, Node ${process.version}) ===\n${table(all)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
