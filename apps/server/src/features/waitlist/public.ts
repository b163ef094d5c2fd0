/** What other features (the members' channel) use of the waitlist: join, leave, the queue. */
export { endClosedWaits, joinWaitlist, leaveWaitlist, listWaitlist } from './service.ts';
export type { WaitActor, WaitScope } from './service.ts';
export { queuePosition } from './repository.ts';
export { waitlistPromoted } from './events.ts';
