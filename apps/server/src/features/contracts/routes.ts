import { queryCardContract, queryContractTemplate, updateContractTemplate } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { cardSold } from '../cards/public.ts';
import * as s from './service.ts';

/** 电子合同: the store's contract template (versioned) and each card sale's contract. */
export const contractsFeature = defineFeature((r) => {
  r.handle(queryContractTemplate, (input, ctx) => s.contractTemplate(ctx, input.version));
  r.handle(updateContractTemplate, (input, ctx) => s.saveContractTemplate(ctx, input), { tx: true });
  r.handle(queryCardContract, (input, ctx) => s.cardContract(ctx, input.mcId));
  r.on(cardSold, s.contractOnSale, 'write');
});
