import type { Events } from '../../lib/events.ts';
import type { OutboxHandler } from '../../outbox/worker.ts';
import { cancelRemoteRoom, createOnDemandRoom, MEETING_CANCEL, MEETING_CREATE } from './service.ts';

/**
 * Outbox handlers of online rooms: on-demand creation after the first booking (announced to the
 * app's listeners `events`), provider-side cancel.
 */
export const meetingHandlers = (events: Events): Record<string, OutboxHandler> => ({
  [MEETING_CREATE]: async (_row, payload, ctx) => {
    await createOnDemandRoom({ ...ctx, events }, (payload as { timetableId: number }).timetableId);
  },
  [MEETING_CANCEL]: async (row, payload, ctx) => {
    await cancelRemoteRoom(ctx, row.storeId, payload as { meetingId: string; meetingType: number });
  },
});
