/**
 * Where this tab keeps the state the server gave the member's session for the reminders' WeChat
 * authorisation while the page is away at WeChat ({ state, me }): the code that comes back with it
 * binds the openid; a code with any other state is for paying (JSAPI).
 */
export const NOTIFY_STATE_KEY = 'wxNotifyState';
