import { queryBookingPolicy, updateBookingPolicy } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { loadPolicy, savePolicy } from './service.ts';

/** Registers the booking policy's calls. */
export const policyFeature = defineFeature((r) => {
  r.handle(queryBookingPolicy, (_input, ctx) => loadPolicy(ctx.db, ctx.store.id));
  r.handle(
    updateBookingPolicy,
    async (input, ctx) => {
      await savePolicy(ctx.db, ctx.store.id, input);
      return null;
    },
    { tx: true },
  );
});
