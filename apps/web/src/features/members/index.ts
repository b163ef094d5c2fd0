export { MemberWaits } from './member-waits.tsx';
export { MemberNoShows } from './member-no-shows.tsx';
export { MemberPhoneAccess } from './member-phone-access.tsx';
export { HealthMark, MemberHealth, useSessionHealthFlags } from './member-health.tsx';
