// The desk's 扫码收款 and the store's 线上订单: create an order for a member, poll it until paid, list orders.
import {
  createPayOrder,
  queryPayOrder,
  queryPayOrderList,
  queryPayReconcile,
  refundPayOrder,
  runPayReconcile,
  type PayOrderStatus,
  type ReqOf,
} from '@studio/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** How often the desk's QR asks whether the member has paid (the server asks the provider while unpaid). */
export const PAY_POLL_MS = 2500;

export function useCreateDeskOrder() {
  return useWrite((body: ReqOf<typeof createPayOrder>) => call(createPayOrder, body));
}

/** The order behind the QR, asked every 2.5 s while it waits for payment (stops once paid or closed). */
export function useDeskOrder(orderNo: string | undefined) {
  return useQuery({
    queryKey: keys.payOrders.one(orderNo),
    queryFn: () => call(queryPayOrder, { orderNo: orderNo! }, { silent: true }),
    enabled: !!orderNo,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'created' ? false : PAY_POLL_MS),
    refetchIntervalInBackground: true,
  });
}

/** 线上订单: the store's orders made in a date range, optionally of one status, 20 a page. */
export function usePayOrderList(q: { fromDate: string; toDate: string; status?: PayOrderStatus; page: number }) {
  return useQuery({
    queryKey: keys.payOrders.list(q.fromDate, q.toDate, q.status, q.page),
    queryFn: () => call(queryPayOrderList, q),
    placeholderData: keepPreviousData,
  });
}

/** 退款: an online order paid back through its provider (whole or part, with a reason). */
export function useRefundPayOrder() {
  return useWrite((body: ReqOf<typeof refundPayOrder>) => call(refundPayOrder, body), {
    success: '退款已提交，款项将原路退回',
    changes: 'payOrder',
  });
}

/** 对账: the day's last reconciliation per provider. */
export function useReconcile(date: string) {
  return useQuery({ queryKey: keys.payOrders.reconcile(date), queryFn: () => call(queryPayReconcile, { date }) });
}

/** 重新对账: the day's bills downloaded and matched now. */
export function useRunReconcile() {
  return useWrite((date: string) => call(runPayReconcile, { date }), {
    success: '对账完成',
    changes: 'payOrder',
  });
}
