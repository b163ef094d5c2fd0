/** What other parts of the server use of the leads (潜客): the daily pool return (main.ts); the conversions a seller's commission counts (teacher-pay). */
export { returnStaleLeads } from './service.ts';
export { conversionsIn } from './repository.ts';
