/** What other features may use of the store administration. */
export { storeFileUrl } from './logo-service.ts';
export { getSetting, onlineDefault, putSetting } from './queries.ts';
