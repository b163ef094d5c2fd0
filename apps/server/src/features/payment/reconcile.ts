import {
  amountText,
  BIG_TYPE_MONEY,
  RECONCILE_KIND_LABEL,
  ReconcileMsg,
  type queryPayReconcile,
  type ParsedReqOf,
  type ReconcileResult,
} from '@studio/contract';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, skipAudit, systemScope, type AuditScope } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { jobItemFailed } from '../../lib/jobs.ts';
import { addDays, addMinutes, localDateTime } from '../../lib/time.ts';
import type { Deps, Fulfiller } from './fulfil.ts';
import { callerOf, settleFromProvider } from './orders.ts';
import { PaymentProviderError, type BillRow, type ProviderName } from './providers/types.ts';
import { askAboutRefund } from './refunds.ts';
import {
  claimReconcile,
  findOrder,
  findRefund,
  finishReconcile,
  ordersPaidOn,
  refundsDoneOn,
  reconcileRuns,
  storesTakingPayments,
} from './repository.ts';
import { loadPaySetting, PROVIDER_LABEL, providerOf, type StoredPaySetting } from './settings.ts';

/**
 * 对账 (issue 28, item 6): a provider's bill of a day matched order by order against our orders paid
 * that day. Four outcomes per order: on both sides with the same amount (matched), on the bill only
 * (provider_only: our order is asked about at the provider and, paid, fulfilled now, as any late
 * notification would; an order number we never made is listed), ours only (local_only), amounts
 * differ (amount). Nothing else is changed: every difference is listed and written to 操作日志.
 * The morning job does the day before for every store; 店长 can run a day again.
 */

type Difference = ReconcileResult['differences'][number];

/** The job runs a day once its bills exist: WeChat's and Alipay's are ready by 10:00 Beijing time. */
export const RECONCILE_FROM = '10:00:00';
/** A run quiet this long is taken over (its instance died); a failed day is tried again after it. */
const STALE_MINUTES = 30;

const fen = (n: number) => amountText(BIG_TYPE_MONEY, n);

/** The job's name (main.ts, /metrics). */
export const RECONCILE_JOB = 'pay reconcile job';

/**
 * One order or refund of the match on its own: a failure is logged, counted in /metrics, listed
 * with what to do, and the rest of the day goes on.
 */
async function each(deps: Deps, item: Record<string, unknown>, run: () => Promise<void>, onFail: () => void) {
  try {
    await run();
  } catch (e) {
    jobItemFailed(RECONCILE_JOB, deps.log, item, e);
    onFail();
  }
}

const FAILED = '处理出错，已记录日志，请稍后重新对账';

/**
 * Matches a bill's pay lines with our orders paid that day, and its refund lines (by our refund
 * number) with our refunds settled 已退款 that day.
 */
export async function matchBill(
  deps: Deps,
  store: { id: number; timezone: string },
  provider: ProviderName,
  date: string,
  bill: BillRow[],
  setting: StoredPaySetting,
  by: Fulfiller,
): Promise<{ matched: number; differences: Difference[] }> {
  const storeId = store.id;
  const ours = new Map((await ordersPaidOn(deps.db, storeId, provider, date)).map((o) => [o.orderNo, o]));
  const billed = new Map<string, number>();
  const billedRefunds = new Map<string, { orderNo: string; amount: number }>();
  for (const line of bill) {
    if (line.kind === 'pay') billed.set(line.outTradeNo, (billed.get(line.outTradeNo) ?? 0) + line.amountFen);
    else if (line.outRefundNo) {
      const had = billedRefunds.get(line.outRefundNo)?.amount ?? 0;
      billedRefunds.set(line.outRefundNo, { orderNo: line.outTradeNo, amount: had + line.amountFen });
    }
  }
  let matched = 0;
  const differences: Difference[] = [];
  for (const [orderNo, amount] of billed) {
    const diff: Difference = { orderNo, kind: 'provider_only', local: null, provider: amount, action: null };
    await each(
      deps,
      { storeId, provider, date, orderNo },
      async () => {
        const order = ours.get(orderNo) ?? (await findOrder(deps.db, storeId, orderNo));
        if (order && order.paidAt === null) {
          // Paid there, not here: the same query-then-fulfil as the close job and the member's 我已支付.
          ours.delete(orderNo);
          const asked = await settleFromProvider(deps, order, setting, by);
          const after = await findOrder(deps.db, storeId, orderNo);
          const fulfilled = after?.paidAt !== null && after?.paidAt !== undefined;
          differences.push({
            ...diff,
            action: after?.exceptionReason
              ? `异常订单：渠道确认已支付，未能${order.kind === 'topup' ? '充值' : '发卡'}（${after.exceptionReason}），请在线上订单原路退款`
              : fulfilled
                ? `已补发：渠道确认已支付，已${order.kind === 'topup' ? '充值到卡' : '发卡'}`
                : asked
                  ? '渠道查询仍未确认支付，请核实'
                  : '渠道查询失败，请稍后重新对账',
          });
          return;
        }
        if (!order) {
          differences.push({ ...diff, action: '本店没有这个订单号，请核实' });
          return;
        }
        ours.delete(orderNo);
        if (order.amount === amount) matched++;
        else differences.push({ orderNo, kind: 'amount', local: order.amount, provider: amount, action: null });
      },
      () => differences.push({ ...diff, action: FAILED }),
    );
  }
  for (const o of ours.values()) {
    differences.push({ orderNo: o.orderNo, kind: 'local_only', local: o.amount, provider: null, action: null });
  }

  const ourRefunds = new Map((await refundsDoneOn(deps.db, storeId, provider, date)).map((r) => [r.refundNo, r]));
  for (const [refundNo, { orderNo, amount }] of billedRefunds) {
    const diff: Difference = {
      orderNo,
      refundNo,
      kind: 'refund_provider_only',
      local: null,
      provider: amount,
      action: null,
    };
    await each(
      deps,
      { storeId, provider, date, orderNo, refundNo },
      async () => {
        const mine = ourRefunds.get(refundNo);
        if (mine) {
          ourRefunds.delete(refundNo);
          if (mine.amount === amount) matched++;
          else differences.push({ ...diff, kind: 'refund_amount', local: mine.amount });
          return;
        }
        const r = await findRefund(deps.db, storeId, refundNo);
        if (!r) {
          differences.push({ ...diff, action: '本店没有这笔退款，请核实' });
          return;
        }
        if (r.status === 1) {
          // 已退款 here on another day (we learned it later): the same refund, listed only if amounts differ.
          if (r.amount === amount) matched++;
          else differences.push({ ...diff, kind: 'refund_amount', local: r.amount });
          return;
        }
        if (r.status === 2) {
          const action =
            r.ledgerId === null
              ? ReconcileMsg.refusedNoCard
              : r.undoLedgerId === null
                ? ReconcileMsg.refusedStranded
                : ReconcileMsg.refusedPutBack;
          differences.push({ ...diff, action });
          return;
        }
        // Still open here: asked now, as the settling job would.
        const done = await askAboutRefund(deps, { ...r, timezone: store.timezone });
        differences.push({
          ...diff,
          action: done === 'done' ? '已补记：渠道确认已退款' : '本店退款仍在处理中，结算任务会继续向渠道查询',
        });
      },
      () => differences.push({ ...diff, action: FAILED }),
    );
  }
  for (const r of ourRefunds.values()) {
    differences.push({
      orderNo: r.orderNo,
      refundNo: r.refundNo,
      kind: 'refund_local_only',
      local: r.amount,
      provider: null,
      action: null,
    });
  }
  return { matched, differences };
}

const summaryOf = (provider: ProviderName, date: string, matched: number, diffs: Difference[]) => {
  const head = `对账 ${date} ${PROVIDER_LABEL[provider]}：一致 ${matched} 笔`;
  if (!diffs.length) return `${head}，无差异`;
  const list = diffs
    .slice(0, 20)
    .map(
      (d) =>
        `${RECONCILE_KIND_LABEL[d.kind]} ${d.orderNo}` +
        (d.refundNo ? ` 退款 ${d.refundNo}` : '') +
        (d.kind === 'amount' || d.kind === 'refund_amount'
          ? `（本店 ${fen(d.local ?? 0)}，渠道 ${fen(d.provider ?? 0)}）`
          : '') +
        (d.action ? `（${d.action}）` : ''),
    )
    .join('；');
  return `${head}，差异 ${diffs.length} 处：${list}${diffs.length > 20 ? '……' : ''}`;
};

/**
 * Reconciles one provider's day: claims it (one run at a time on any number of instances), downloads
 * the bill, matches it and records the result with its 操作日志 entry. Answers null when another run
 * holds the day (or, for the job, it was done).
 */
async function reconcileDay(
  deps: Deps,
  store: { id: number; timezone: string },
  provider: ProviderName,
  date: string,
  setting: StoredPaySetting,
  run: { scope: AuditScope | undefined; by: Fulfiller; again: boolean; now: string },
): Promise<boolean> {
  const adapter = providerOf(setting, provider, deps);
  if (!adapter) return false;
  const id = await inWriteTx(
    deps.db,
    deps.dialect,
    async (tx) => {
      skipAudit(tx);
      return claimReconcile(tx, {
        storeId: store.id,
        provider,
        billDate: date,
        now: run.now,
        staleBefore: addMinutes(run.now, -STALE_MINUTES),
        again: run.again,
      });
    },
    run.scope,
  );
  if (id === null) return false;
  let outcome: { matched: number; differences: Difference[] } | { error: string };
  try {
    const bill = await adapter.downloadBill(date);
    outcome = await matchBill(deps, store, provider, date, bill, setting, run.by);
  } catch (e) {
    if (e instanceof PaymentProviderError) {
      deps.log.warn({ storeId: store.id, provider, date, kind: e.kind, code: e.code }, 'bill download failed');
      outcome = { error: `下载账单失败：${e.message}` };
    } else {
      // Never left 'running': the day ends failed (tried again later) and the failure is counted.
      jobItemFailed(RECONCILE_JOB, deps.log, { storeId: store.id, provider, date }, e);
      outcome = { error: '对账出错，已记录日志，请稍后重新对账' };
    }
  }
  const finishedAt = localDateTime(store.timezone);
  await inWriteTx(
    deps.db,
    deps.dialect,
    async (tx) => {
      if ('error' in outcome) {
        await finishReconcile(tx, id, {
          status: 'failed',
          now: finishedAt,
          matched: 0,
          differences: 0,
          result: null,
          error: outcome.error,
        });
        audit(tx, { kind: 'card', summary: `对账 ${date} ${PROVIDER_LABEL[provider]}：${outcome.error}` });
        return;
      }
      await finishReconcile(tx, id, {
        status: 'done',
        now: finishedAt,
        matched: outcome.matched,
        differences: outcome.differences.length,
        result: JSON.stringify(outcome.differences),
        error: null,
      });
      audit(tx, { kind: 'card', summary: summaryOf(provider, date, outcome.matched, outcome.differences) });
    },
    run.scope,
  );
  return true;
}

const enabledProviders = (s: StoredPaySetting, only?: ProviderName): ProviderName[] =>
  (['wechat', 'alipay'] as const).filter((p) => (only === undefined || p === only) && s[p].enabled);

async function resultsOf(ctx: Pick<CallCtx, 'db'>, storeId: number, date: string, providers: ProviderName[]) {
  const runs = await reconcileRuns(ctx.db, storeId, date);
  return providers.map((provider): ReconcileResult => {
    const r = runs.find((x) => x.provider === provider);
    if (!r) return { provider, date, status: 'none', matched: 0, differences: [], finishedAt: null, error: null };
    return {
      provider,
      date,
      status: r.status as ReconcileResult['status'],
      matched: r.matched,
      differences: r.result ? (JSON.parse(r.result) as Difference[]) : [],
      finishedAt: r.finishedAt,
      error: r.error,
    };
  });
}

type ReconcileInput = ParsedReqOf<typeof queryPayReconcile>;

function checkDay(ctx: CallCtx, date: string) {
  if (date >= localDateTime(ctx.store.timezone).slice(0, 10)) throw badRequest(ReconcileMsg.date);
}

/** 对账: the last result of a day per provider the store takes payments with. */
export async function queryReconcile(ctx: CallCtx, input: ReconcileInput) {
  checkDay(ctx, input.date);
  const setting = await loadPaySetting(ctx.db, ctx.store.id);
  return { list: await resultsOf(ctx, ctx.store.id, input.date, enabledProviders(setting, input.provider)) };
}

/** 重新对账: the day again now, for each provider asked; refused while another run holds it. */
export async function runReconcile(ctx: CallCtx, input: ReconcileInput) {
  checkDay(ctx, input.date);
  const setting = await loadPaySetting(ctx.db, ctx.store.id);
  const providers = enabledProviders(setting, input.provider);
  if (!providers.length) throw conflict(ReconcileMsg.noProvider);
  for (const provider of providers) {
    const ran = await reconcileDay(ctx, ctx.store, provider, input.date, setting, {
      scope: undefined,
      by: callerOf(ctx),
      again: true,
      now: localDateTime(ctx.store.timezone),
    });
    if (!ran) throw conflict(ReconcileMsg.running);
  }
  return { list: await resultsOf(ctx, ctx.store.id, input.date, providers) };
}

const JOB: Fulfiller = { kind: 'system', call: 'job/pay-reconcile' };

/**
 * The morning job: from 10:00 store time, yesterday's bills of every store taking payments, once
 * (a failed day is tried again after half an hour). Safe on any number of instances (the claim is
 * one guarded statement). `clock` gives a store's wall time (tests move it). Answers the days run.
 */
export async function reconcileYesterday(
  deps: Deps,
  clock: (timezone: string) => string = (tz) => localDateTime(tz),
): Promise<number> {
  let n = 0;
  for (const store of await storesTakingPayments(deps.db)) {
    const now = clock(store.timezone);
    if (now.slice(11) < RECONCILE_FROM) continue;
    // Each store on its own: one that throws is logged, counted and skipped.
    await each(
      deps,
      { storeId: store.id },
      async () => {
        const setting = await loadPaySetting(deps.db, store.id);
        const date = addDays(now.slice(0, 10), -1);
        for (const provider of enabledProviders(setting)) {
          const scope = systemScope('对账', JOB.call, 'card', store.id);
          if (await reconcileDay(deps, store, provider, date, setting, { scope, by: JOB, again: false, now })) n++;
        }
      },
      () => undefined,
    );
  }
  return n;
}
