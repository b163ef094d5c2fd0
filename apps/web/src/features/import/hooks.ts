// 导入 and 导出全部数据: reading a file's columns, the dry run and the import, the export's address.
import {
  exportStoreData,
  importMembers,
  queryImportColumns,
  queryJobProgress,
  type ExportFormat,
  type ImportMapping,
  type JobPhase,
} from '@studio/contract';
import { useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { sendWithUploadProgress } from '../../api/upload.ts';
import { afterWrite } from '../../shared/invalidations.ts';
import { useWrite } from '../../shared/use-write.ts';

/** A chosen file, read as base64. */
export interface PickedFile {
  fileName: string;
  content: string;
}

/** Reads a browser file as base64 (without the data: prefix). */
export function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('文件读取失败'));
    r.readAsDataURL(file);
  });
}

export function useImportColumns() {
  return useWrite((file: PickedFile) => call(queryImportColumns, file));
}

export type ImportRun = PickedFile & { mapping: ImportMapping; duplicates: 'merge' | 'skip'; dryRun: boolean };

/** Where an import or export stands: the file's upload (bytes), then the server's phase and rows. */
export interface JobBar {
  phase: JobPhase | 'upload';
  done: number;
  total: number;
}

/** How often the progress is asked while the work runs. */
const POLL_MS = 400;
/** Polls an export may stay unstarted before the page stops watching it (about half a minute). */
const EXPORT_WAIT_POLLS = 75;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A random id of one import or export (crypto.randomUUID needs https; this does not). */
function newProgressId(kind: string) {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `${kind}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Asks the server how far the job has got until `stop()` says it ended, then once more for the final
 * figures. Each answer is the server's own count of rows done (see the server's import-export/progress.ts).
 */
function watchProgress(progressId: string, show: (p: JobBar) => void, asking: () => boolean) {
  let ended = false;
  const ask = () => call(queryJobProgress, { progressId }, { silent: true }).catch(() => null);
  const loop = (async () => {
    while (!ended) {
      await pause(POLL_MS);
      if (ended || !asking()) continue;
      const p = await ask();
      if (p && !ended && p.phase !== 'waiting') show(p);
    }
  })();
  return {
    /** Ends the polling and shows the server's last figures. */
    async stop() {
      ended = true;
      await loop;
      const p = await ask();
      if (p && p.phase !== 'waiting') show(p);
    },
  };
}

/**
 * The dry run, or the import (then members, cards and reports are read again), with its progress:
 * the file's upload in bytes as the browser sends it, then the rows the server has checked and the
 * members and cards it has written.
 */
export function useImport(show: (p: JobBar) => void) {
  const qc = useQueryClient();
  return useWrite(async (run: ImportRun) => {
    const progressId = newProgressId('import');
    let uploaded = false;
    show({ phase: 'upload', done: 0, total: run.content.length });
    const watch = watchProgress(progressId, show, () => uploaded);
    const send = sendWithUploadProgress((sent, total) => {
      if (uploaded) return;
      show({ phase: 'upload', done: sent, total });
      if (sent >= total) uploaded = true;
    });
    try {
      const data = await call(importMembers, { ...run, progressId }, { send });
      if (!run.dryRun) {
        afterWrite(qc, 'member');
        afterWrite(qc, 'memberCard');
      }
      return data;
    } finally {
      await watch.stop();
    }
  });
}

/**
 * 导出全部数据: asks for the file's address, lets the browser download it (it streams to disk), and
 * shows the rows the server has written of the store's total until it says the file is complete.
 */
export function useExport(show: (p: JobBar) => void) {
  return useWrite(async (format: ExportFormat) => {
    const progressId = newProgressId('export');
    const link = await call(exportStoreData, { format, progressId });
    show({ phase: 'export', done: 0, total: 0 });
    const a = document.createElement('a');
    a.href = link.url;
    a.download = link.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Until the server's last report (已完成 or 未完成): the download itself is the browser's. A
    // download that never reaches the server (the browser refused it) stops being watched after a while.
    for (let waited = 0; waited < EXPORT_WAIT_POLLS;) {
      await pause(POLL_MS);
      const p = await call(queryJobProgress, { progressId }, { silent: true }).catch(() => null);
      if (!p || p.phase === 'waiting') {
        waited += 1;
        continue;
      }
      show(p);
      if (p.phase === 'done' || p.phase === 'failed') break;
    }
    return link;
  });
}
