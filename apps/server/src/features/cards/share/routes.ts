import { addCardShare, deleteCardShare } from '@studio/contract';
import { defineFeature } from '../../../lib/feature.ts';
import { withCard } from '../../../lib/wire-names.ts';
import { addShare, removeShare } from './service.ts';

/** 多人共享: the members besides its holder who book on a card (issue 29, item 6). */
export const cardShareFeature = defineFeature((r) => {
  r.handle(addCardShare, (input, ctx) => addShare(ctx, withCard(input)));
  r.handle(deleteCardShare, (input, ctx) => removeShare(ctx, withCard(input)));
});
