export { MemberWaits } from './member-waits.tsx';
export { MemberNoShows } from './member-no-shows.tsx';
