/** What other parts of the server use of lesson booking: the release job (main.ts). */
export { releaseUnconfirmed } from './booking-service.ts';
