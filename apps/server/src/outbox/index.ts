/**
 * The transactional outbox: `enqueue` in the caller's transaction, a worker that sends. The worker
 * knows no topic of its own: main.ts (and the tests that start one) pass the app's handlers,
 * features/index.ts `outboxHandlers`.
 */
export { enqueue } from './enqueue.ts';
export { GiveUp, OUTBOX_DEFAULTS, startOutboxWorker, type OutboxHandler } from './worker.ts';
