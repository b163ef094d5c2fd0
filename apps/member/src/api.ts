import type { memberStore, ResOf } from '@studio/contract';
import { createClient } from '@studio/contract/client';

export { ApiError } from '@studio/contract/client';

/** The store of the page, as /member/api/query/store answers it. */
export type StoreInfo = ResOf<typeof memberStore>;

let onSignedOut: () => void = () => {};
/** The app is told when a call finds the member signed out (session ended at the desk, expired). */
export function setSignedOutHandler(fn: () => void): void {
  onSignedOut = fn;
}

/**
 * The members' request helper (the shared client, `@studio/contract/client`) with the member
 * cookie: a 401 of a member's call tells the app (setSignedOutHandler); failures are thrown for the
 * screen to show, in the page's own words when the server gave none.
 */
export const call = createClient({
  onSignedOut: () => onSignedOut(),
  unreadableMessage: () => '服务暂时不可用，请稍后再试',
  failedMessage: () => '操作失败，请稍后再试',
});
