// What other features may use of the members' channel.
export { SmsCapReached, SmsSendFailed, smsSenderOf, smsToday, storedSmsSetting, type SmsMessage } from './sms.ts';
export { memberCalendarEntries, type CalendarEntry } from './service.ts';
export { publicBaseOf } from './public-base.ts';
