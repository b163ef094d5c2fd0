// What other features may use of the members' channel.
export { smsToday } from './sms.ts';
export { publicBaseOf } from './public-base.ts';
