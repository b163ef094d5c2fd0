/** What the app and other features use of online payment: the notification routes and the close job. */
export { registerPayNotifyRoutes } from './notify-route.ts';
export { closeExpiredOrders } from './orders.ts';
export { RECONCILE_JOB, reconcileYesterday } from './reconcile.ts';
export { REFUND_SETTLE_JOB, settleOpenRefunds } from './refunds.ts';
export { exceptionOrderCount } from './repository.ts';
