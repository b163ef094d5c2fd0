import { defineEvent } from '../../lib/events.ts';

/** The store's messaging setting (the group robot's webhook) was saved. */
export const messagingSettingSaved = defineEvent<{ storeId: number }>('store.messaging-setting-saved');
