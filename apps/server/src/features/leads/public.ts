/** What other parts of the server use of the leads (潜客): the daily pool return (main.ts). */
export { returnStaleLeads } from './service.ts';
