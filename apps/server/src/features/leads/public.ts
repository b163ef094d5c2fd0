/** What other parts of the server use of the leads (潜客): the daily pool return (main.ts); marketing consents (features/marketing). */
export { returnStaleLeads } from './service.ts';
export { recordLeadConsents } from './consent.ts';
export { leadsWithMarketingConsent } from './repository.ts';
export {
  checkLeadSheet,
  leadImportChangedSince,
  undoLeadImport,
  writeLeadRows,
  type LeadImportUndo,
  type LeadRow,
  type LeadSheet,
} from './import.ts';
