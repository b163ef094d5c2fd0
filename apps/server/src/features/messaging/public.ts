import type { OutboxHandler } from '../../outbox/index.ts';
import { sendWecom, WECOM_TOPIC } from './wecom.ts';

export { WECOM_TOPIC } from './wecom.ts';

/** Outbox handlers of store messaging (main.ts and the tests that start a worker register them). */
export const messagingHandlers: Record<string, OutboxHandler> = { [WECOM_TOPIC]: sendWecom };
