// 导入 and 导出全部数据: reading a file's columns, the dry run and the import, the export's address.
import {
  exportStoreData,
  importMembers,
  queryImportColumns,
  type ExportFormat,
  type ImportMapping,
} from '@studio/contract';
import { useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
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

/** The dry run, or the import (then members, cards and reports are read again). */
export function useImport() {
  const qc = useQueryClient();
  return useWrite(async (run: ImportRun) => {
    const data = await call(importMembers, run);
    if (!run.dryRun) {
      afterWrite(qc, 'member');
      afterWrite(qc, 'memberCard');
    }
    return data;
  });
}

/** 导出全部数据: asks for the file's address, then lets the browser download it (it streams). */
export function useExport() {
  return useWrite(async (format: ExportFormat) => {
    const link = await call(exportStoreData, { format });
    const a = document.createElement('a');
    a.href = link.url;
    a.download = link.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    return link;
  });
}
