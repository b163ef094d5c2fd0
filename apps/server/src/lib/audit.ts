import type { AuditKind } from '@studio/contract';
import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Database } from '../db/schema.ts';
import { auditStrict } from '../db/strict.ts';
import { cardHolders, insertAuditEntry } from './audit-repository.ts';

type Executor = Kysely<Database>;

/** What an audit entry is about: filters find entries by these. */
export type AuditTargetType =
  | 'member'
  | 'session'
  | 'card'
  | 'booking'
  | 'staff'
  | 'wait'
  | 'teacher'
  | 'course'
  | 'area'
  | 'material'
  | 'product'
  | 'template'
  | 'lead';
export interface AuditTarget {
  type: AuditTargetType;
  id: number;
}

/** Who made a change. */
export type AuditActor =
  | { kind: 'staff'; staffId: number; name: string }
  | { kind: 'member'; memberId: number; name: string }
  | { kind: 'system'; name: string };

/** What a service adds to the entry of the change it makes (each part optional; targets add up). */
export interface AuditNote {
  kind?: AuditKind;
  summary?: string;
  /** The thing it was about, in words, when the targets do not say it (a setting, a course...). */
  target?: string;
  targets?: AuditTarget[];
  /** Changed fields, labelled in staff words, before and after. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** For a bulk change: what its undo needs. */
  undo?: unknown;
  /** For an undo: the entry of the change it undoes (unique: a change is undone once). */
  undoOf?: number;
}

/** The audit scope of one request or job: who, the call, the store, and the note so far. */
export interface AuditScope {
  actor: AuditActor;
  call: string;
  /** Set once the store is known (store and member calls, jobs). */
  storeId?: number;
  /**
   * What the entry says when no note says otherwise: a call's summary from the contract; a job's
   * kind and targets too (a call's kind and targets come from its service's note: see writeAuditEntry).
   */
  defaults: { summary: string; kind?: AuditKind; targets?: AuditTarget[] };
  note: AuditNote;
  /** Entries written so far in this scope. */
  written: number;
  /** Inside an audited write transaction (direct writes outside one are a bug, see strict). */
  inTx?: boolean;
  /** Write no entry for the current transaction (see skipAudit). */
  skip?: boolean;
  /** The write transaction the scope is inside (a nested inWriteTx joins it). */
  tx?: Executor;
  /** A bulk change records what its undo needs (bulkTx sets it; writers add through recordForUndo). */
  recordUndo?: boolean;
}

/**
 * Where a scope is found: the executor a service holds. A call that writes gets its own database
 * handle (`scopedDb`: the app's database with the scope attached, one small object per request), and
 * each audited write transaction is attached to its scope while its body runs (`auditedBody`), so
 * `audit(tx, ...)` and `inWriteTx(ctx.db, ...)` find the scope of the call that runs them. (Explicit,
 * rather than AsyncLocalStorage, which costs every promise of the process on Node 20.)
 */
const byExecutor = new WeakMap<object, AuditScope>();
/** A scoped handle's underlying database (the write queue and transactions use that one). */
const roots = new WeakMap<object, Kysely<Database>>();

/** The audit scope of a database handle or transaction, if it has one. */
export const scopeOf = (ex: object): AuditScope | undefined => byExecutor.get(ex);

/** The database under a scoped handle (or the handle itself). */
export const rootOf = <T extends Kysely<Database>>(db: T): T => (roots.get(db) as T | undefined) ?? db;

/** Whether `ex` is an audited write transaction whose body is running (a nested write joins it). */
export const inAuditedTx = (ex: object): boolean => byExecutor.get(ex)?.tx === ex;

/**
 * The app's database with a call's scope attached: the call's services write through it. In the
 * suites (AUDIT_STRICT=1) a business write made through it outside an audited transaction throws.
 */
export function scopedDb<T extends Kysely<Database>>(db: T, scope: AuditScope): T {
  const scoped = db.withPlugin(auditStrict ? new AuditGuardPlugin(scope) : NOOP_PLUGIN) as T;
  byExecutor.set(scoped, scope);
  roots.set(scoped, rootOf(db));
  return scoped;
}

/** A system scope (jobs): the writes made in it are entries by 系统 in `storeId`'s log. */
export function systemScope(name: string, call: string, kind: AuditKind, storeId: number): AuditScope {
  return {
    actor: { kind: 'system', name },
    call,
    storeId,
    defaults: { kind, summary: name, targets: [] },
    note: {},
    written: 0,
  };
}

/** Adds to the entry of the change being made through `ex` (no-op without a scope). */
export function audit(ex: object, note: AuditNote): void {
  const scope = byExecutor.get(ex);
  if (!scope) return;
  const n = scope.note;
  if (note.kind) n.kind = note.kind;
  if (note.summary) n.summary = note.summary;
  if (note.target) n.target = note.target;
  if (note.targets?.length) n.targets = [...(n.targets ?? []), ...note.targets];
  if (note.before) n.before = { ...n.before, ...note.before };
  if (note.after) n.after = { ...n.after, ...note.after };
  if (note.undo !== undefined) n.undo = note.undo;
  if (note.undoOf !== undefined) n.undoOf = note.undoOf;
}

/**
 * Notes a change like `audit`, and when it is the first change its transaction notes, writes its
 * entry at once instead of after the body. A writer about to take a contended row lock (a
 * booking's session row, which every booking of a class waits for) calls it before the lock, so
 * that the lock is held for the write and the commit only. A later note of the same transaction
 * gets an entry of its own at the end, as in any scope that writes two.
 */
export async function auditFirst(tx: Executor, note: AuditNote): Promise<void> {
  const scope = byExecutor.get(tx);
  const first = scope?.tx === tx && scope.written === 0 && !scope.skip && Object.keys(scope.note).length === 0;
  audit(tx, note);
  if (first) await writeAuditEntry(tx, scope);
}

/**
 * Adds facts an undo of the current bulk change needs (lists append): nothing outside a bulk change,
 * so the same writers used by an undo itself record nothing.
 */
export function recordForUndo(ex: object, part: Record<string, unknown[]>): void {
  const scope = byExecutor.get(ex);
  if (!scope?.recordUndo) return;
  const undo = (scope.note.undo ??= {}) as Record<string, unknown[]>;
  for (const [key, list] of Object.entries(part)) undo[key] = [...(undo[key] ?? []), ...list];
}

/**
 * An export of members' personal data (a booking list, the store's data) leaves its entry in 操作日志:
 * what was exported and by whom. The exporting calls are writes for that entry's sake.
 */
export function auditExport(ex: object, what: string, targets: AuditTarget[] = []): void {
  audit(ex, { kind: 'privacy', summary: `导出${what}`, target: what, targets });
}

/** The transaction changed nothing worth an entry (a job that found its work done). */
export function skipAudit(ex: object): void {
  const scope = byExecutor.get(ex);
  if (scope) scope.skip = true;
}

/** Sets the store of the scope (the first-run setup's new store). */
export function auditStore(ex: object, storeId: number): void {
  const scope = byExecutor.get(ex);
  if (scope) scope.storeId = storeId;
}

/** The fields of `after` that differ from `before`, both sides, labelled; undefined when none changed. */
export function changedFields(
  beforeRow: object,
  afterRow: object,
  labels: Record<string, string>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  const before = beforeRow as Record<string, unknown>;
  const after = afterRow as Record<string, unknown>;
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [key, label] of Object.entries(labels)) {
    if (!(key in after)) continue;
    const x = before[key] ?? null;
    const y = after[key] ?? null;
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    b[label] = x;
    a[label] = y;
  }
  return Object.keys(a).length ? { before: b, after: a } : undefined;
}

/**
 * A write call committed a change its service did not describe (no `audit(tx, { kind, ... })` in
 * the transaction). In the suites (AUDIT_STRICT=1) the transaction is rolled back: every write call
 * is driven by features/audit/roles-audit.test.ts, so a service that forgets is found there.
 */
export class UnsaidChange extends Error {
  override name = 'UnsaidChange';
  constructor(call: string) {
    super(`${call}: the service did not say what it changed (audit(tx, { kind, targets }))`);
  }
}

/**
 * Writes the entry of the scope's change in the caller's transaction, from the note collected so
 * far, and clears the note (a second transaction of the same call writes its own entry only if it
 * noted something). Without a store (a staff call outside any store) nothing is written.
 */
export async function writeAuditEntry(tx: Executor, scope: AuditScope, at = Date.now()): Promise<void> {
  const storeId = scope.storeId;
  const n = scope.note;
  const noted = Object.keys(n).length > 0;
  if (scope.skip) {
    scope.skip = false;
    scope.note = {};
    return;
  }
  if (storeId === undefined || (!noted && scope.written > 0)) return;
  scope.note = {};
  const actor = scope.actor;
  let kind = n.kind ?? scope.defaults.kind;
  if (!kind) {
    if (auditStrict) throw new UnsaidChange(scope.call);
    // In production a change is never refused for its log entry: it is logged as a 基础资料 change.
    kind = 'reference';
  }
  const named = dedupe([...(n.targets ?? []), ...(n.targets?.length ? [] : (scope.defaults.targets ?? []))]);
  // An entry about a card is about its member too (the log finds a refund by the member's name).
  // (A booking names its member already: no look-up then.)
  const cards = named.some((t) => t.type === 'member') ? [] : named.filter((t) => t.type === 'card').map((t) => t.id);
  const holders = cards.length ? await cardHolders(tx, cards) : [];
  const targets = dedupe([...named, ...holders.map((h) => ({ type: 'member' as const, id: h.memberId }))]);
  await insertAuditEntry(
    tx,
    {
      storeId,
      at,
      actorKind: actor.kind,
      staffId: actor.kind === 'staff' ? actor.staffId : null,
      memberId: actor.kind === 'member' ? actor.memberId : null,
      actorName: actor.name,
      call: scope.call,
      kind,
      target: n.target ?? '',
      summary: n.summary ?? scope.defaults.summary,
      beforeJson: n.before ? JSON.stringify(n.before) : null,
      afterJson: n.after ? JSON.stringify(n.after) : null,
      undoJson: n.undo === undefined ? null : JSON.stringify(n.undo),
      undoOf: n.undoOf ?? null,
    },
    targets.map((t) => ({ type: t.type, refId: t.id })),
  );
  scope.written += 1;
}

/** An entry by 系统 written directly in a transaction (what the engine does on its own, e.g. a promotion). */
export async function writeSystemEntry(
  tx: Executor,
  storeId: number,
  e: { name: string; call: string; kind: AuditKind; summary: string; targets: AuditTarget[] },
): Promise<void> {
  await writeAuditEntry(tx, {
    actor: { kind: 'system', name: e.name },
    call: e.call,
    storeId,
    defaults: { kind: e.kind, summary: e.summary, targets: e.targets },
    note: {},
    written: 0,
  });
}

function dedupe(targets: AuditTarget[]): AuditTarget[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const k = `${t.type}:${t.id}`;
    if (seen.has(k) || !Number.isInteger(t.id) || t.id <= 0) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Runs a write transaction's body with `tx` attached to the scope it was started from, and writes the
 * scope's entry in that transaction after it. The SQLite write queue runs bodies of one group one
 * after the other on the same transaction, so `tx` belongs to one scope at a time.
 */
export async function auditedBody<T>(scope: AuditScope | undefined, tx: Executor, fn: () => Promise<T>): Promise<T> {
  if (!scope) return fn();
  const wasInTx = scope.inTx;
  scope.inTx = true;
  scope.tx = tx;
  byExecutor.set(tx, scope);
  try {
    const value = await fn();
    await writeAuditEntry(tx, scope);
    return value;
  } finally {
    byExecutor.delete(tx);
    scope.inTx = wasInTx;
    scope.tx = undefined;
  }
}

/** Tables whose writes are bookkeeping, not business changes (sessions, counters, the log itself, jobs). */
const UNAUDITED_TABLES = new Set([
  'httpSession',
  'loginCounter',
  'memberSession',
  'memberLoginCode',
  'wechatOauthState',
  'auditLog',
  'auditTarget',
  'dailyJob',
  'outbox',
  'storeVersion',
  'opLock',
  'jobProgress',
]);

function tableOf(node: { kind: string } & Record<string, any>): string | undefined {
  const t =
    node.kind === 'InsertQueryNode'
      ? node.into
      : node.kind === 'UpdateQueryNode'
        ? node.table
        : node.kind === 'DeleteQueryNode'
          ? node.from?.froms?.[0]
          : undefined;
  const table = t?.kind === 'AliasNode' ? t.node : t;
  return table?.table?.identifier?.name;
}

/**
 * The plugin of a scoped handle in the suites (AUDIT_STRICT=1): a business write made through it
 * while its scope is not inside an audited transaction throws, so a write that would leave no entry
 * in its own transaction is found by the suites rather than in production.
 */
class AuditGuardPlugin implements KyselyPlugin {
  constructor(private scope: AuditScope) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as RootOperationNode & Record<string, any>;
    if (
      !this.scope.inTx &&
      (node.kind === 'InsertQueryNode' || node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode')
    ) {
      const table = tableOf(node);
      if (table && !UNAUDITED_TABLES.has(table)) {
        throw new Error(`write to ${table} outside an audited transaction (${this.scope.call})`);
      }
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const NOOP_PLUGIN: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => args.result,
};
