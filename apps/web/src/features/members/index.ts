export { MemberWaits } from './member-waits.tsx';
