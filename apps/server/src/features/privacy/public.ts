/** What other parts of the server use of members' privacy: marketing consents (features/marketing). */
export { recordMemberMarketing } from './service.ts';
export { membersWithMarketingConsent } from './repository.ts';
