import type { OutboxHandler } from '../../outbox/index.ts';
import { smsHandlers } from './sms-notices.ts';
import { sendWecom, WECOM_TOPIC } from './wecom.ts';

export { WECOM_TOPIC } from './wecom.ts';
export {
  loginCodeMessage,
  sendInBackground,
  SmsCapReached,
  SmsSendFailed,
  smsSenderOf,
  smsToday,
  storedSmsSetting,
  textsToday,
  tooManyTextsToday,
  type SmsMessage,
} from './sms.ts';
export { BASE_KEY, publicBaseOf } from './public-base.ts';

/** Outbox handlers of store messaging: WeCom and text messages (main.ts and the tests that start a worker register them). */
export const messagingHandlers: Record<string, OutboxHandler> = { [WECOM_TOPIC]: sendWecom, ...smsHandlers };
