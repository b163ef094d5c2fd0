import type { MeetingInfo } from '@studio/contract';
import { defineEvent } from '../../lib/events.ts';

/** An online room created for a session: its code and join link. */
export const roomCreated = defineEvent<{ storeId: number; sessionId: number; info: MeetingInfo }>('room.created');
