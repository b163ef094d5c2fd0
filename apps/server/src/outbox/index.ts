import { meetingHandlers } from '../features/online/handlers.ts';
import { sendWecom, WECOM_TOPIC } from './wecom.ts';
import { startOutboxWorker as startWorker, type OutboxHandler, type OutboxWorkerOptions } from './worker.ts';

export { enqueue } from './enqueue.ts';
export { GiveUp, OUTBOX_DEFAULTS, type OutboxHandler } from './worker.ts';

/** Every topic the app queues, with its handler. */
export function defaultHandlers(): Record<string, OutboxHandler> {
  return { [WECOM_TOPIC]: sendWecom, ...meetingHandlers };
}

/**
 * Starts the app's outbox worker (WeCom messages, on-demand rooms, provider-side room cancels).
 * Options default to OUTBOX_DEFAULTS; `handlers` adds or replaces topics. Returns stop().
 */
export function startOutboxWorker(
  deps: Omit<OutboxWorkerOptions, 'handlers'> & { handlers?: Record<string, OutboxHandler> },
): () => Promise<void> {
  return startWorker({ ...deps, handlers: { ...defaultHandlers(), ...deps.handlers } });
}
