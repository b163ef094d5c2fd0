/** What other parts of the server may use of the online rooms. */
export { meetingHandlers } from './handlers.ts';
export { onlineSession, type OnlineSession } from './repository.ts';
export { roomCreated } from './events.ts';
