/** What other features may use of the store administration. */
export { storeFileUrl } from './logo-service.ts';
export { onlineDefault } from './booking-setting-service.ts';
export {
  getSetting,
  insertSettingIfAbsent,
  putSetting,
  storeLogo,
  storeLogoFileId,
  storeValues,
  storeValuesRead,
} from './repository.ts';
export { messagingSettingSaved } from './events.ts';
export { createStoreWithAdmin } from './new-store-repository.ts';
