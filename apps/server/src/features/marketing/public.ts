/** What the app uses of marketing texts: the outbox handler (features/index.ts) and the reply route (app.ts). */
export { marketingHandlers } from './send.ts';
export { registerSmsUplinkRoute } from './uplink.ts';
