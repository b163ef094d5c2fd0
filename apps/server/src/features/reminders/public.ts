/** What other features and the app shell use of the reminders. */
export { queueReminder, type ReminderInput } from './queue.ts';
export { runReminders, type JobDeps } from './job.ts';
export { dropTrialReminders, planTrialReminders } from './trial.ts';
import { NOTIFY_TOPIC } from './queue.ts';
import { sendQueuedNotice } from './send.ts';
import type { OutboxHandler } from '../../outbox/index.ts';

/** Outbox handlers of the reminders: a message queued by a change, sent after its commit. */
export const reminderHandlers: Record<string, OutboxHandler> = { [NOTIFY_TOPIC]: sendQueuedNotice };
export { bindMemberOpenidUnder, memberOpenidUnder, useWechatState } from './openid.ts';
