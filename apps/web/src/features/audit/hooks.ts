// The audit log's reads and the undo of a bulk change.
import { queryAuditLog, undoBulkChange, type ReqOf } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';
import { onSession } from '../../api/wire.ts';

/** The log's filter as the screen holds it (the page apart), the class by its inside name. */
export type AuditFilter = Omit<
  ReqOf<typeof queryAuditLog>,
  'page' | 'pageSize' | keyof ReturnType<typeof onSession>
> & { sessionId: number | null };

/** The call's input: the class goes on the wire by its call's name. */
function auditRequest(
  { sessionId, ...rest }: AuditFilter,
  page: number,
  pageSize: number,
): ReqOf<typeof queryAuditLog> {
  return { ...rest, ...onSession(sessionId), page, pageSize };
}

export const AUDIT_PAGE_SIZE = 20;
/** The most rows one export asks for (the contract's limit). */
export const AUDIT_EXPORT_MAX = 5000;

/** One page of the log (20 entries); every write adds entries, so it is asked again on each visit. */
export function useAuditLog(filter: AuditFilter, page: number) {
  return useQuery({
    queryKey: keys.audit.page({ ...filter, page }),
    queryFn: () => call(queryAuditLog, auditRequest(filter, page, AUDIT_PAGE_SIZE)),
    placeholderData: (p) => p,
    staleTime: 0,
  });
}

/** Every entry of the filter (up to 5000) for the export. */
export function fetchAuditForExport(filter: AuditFilter) {
  return call(queryAuditLog, auditRequest(filter, 1, AUDIT_EXPORT_MAX));
}

/**
 * What undoing a bulk change would do (the server runs the undo and rolls it back): the sessions,
 * the bookings, and each refund and deduction with its member, card and class. A refusal goes to
 * `onRefused`, as the undo's would.
 */
export function useUndoPreview(onRefused: (msg: string) => void) {
  return useWrite(
    async (auditId: number) => (await call(undoBulkChange, { auditId, dryRun: true }, { silent: true }))!,
    { onError: (e) => onRefused(e.message) },
  );
}

/** Undoes a bulk change; a refusal (expired, undone already, changed since) goes to `onRefused`. */
export function useUndoBulkChange(onRefused: (msg: string) => void) {
  return useWrite((auditId: number) => call(undoBulkChange, { auditId }, { silent: true }), {
    success: '已撤销',
    changes: 'undo',
    onError: (e) => onRefused(e.message),
  });
}
