import { queryCardTransferPreview, transferMemberCard } from '@studio/contract';
import { defineFeature } from '../../../lib/feature.ts';
import { withCard } from '../../../lib/wire-names.ts';
import { transferCard, transferPreview } from './service.ts';

/** 转卡: a card moved to another member of the store (issue 29, item 5). */
export const cardTransferFeature = defineFeature((r) => {
  r.handle(queryCardTransferPreview, (input, ctx) => transferPreview(ctx, input.mcId));
  r.handle(transferMemberCard, (input, ctx) => transferCard(ctx, withCard(input)));
});
