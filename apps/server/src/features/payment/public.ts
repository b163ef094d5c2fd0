/** What the app and other features use of online payment: the notification routes and the close job. */
export { registerPayNotifyRoutes } from './notify-route.ts';
export { closeExpiredOrders } from './orders.ts';
export { reconcileYesterday } from './reconcile.ts';
export { settleOpenRefunds } from './refunds.ts';
export { exceptionOrderCount } from './repository.ts';
