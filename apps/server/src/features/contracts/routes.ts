import {
  createCardContractLink,
  downloadCardContract,
  memberCardContract,
  memberContractPreview,
  memberDownloadContract,
  memberSignContract,
  queryCardContract,
  queryContractTemplate,
  signCardContract,
  updateContractTemplate,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { cardSold } from '../cards/public.ts';
import * as s from './service.ts';
import * as sign from './signing.ts';

/** 电子合同: the store's contract template (versioned), each card sale's contract, and its signing. */
export const contractsFeature = defineFeature((r) => {
  r.handle(queryContractTemplate, (input, ctx) => s.contractTemplate(ctx, input.version));
  r.handle(updateContractTemplate, (input, ctx) => s.saveContractTemplate(ctx, input), { tx: true });
  r.handle(queryCardContract, (input, ctx) => sign.deskContract(ctx, input.mcId));
  r.handle(createCardContractLink, (input, ctx) => sign.signingLink(ctx, input.mcId));
  r.handle(signCardContract, (input, ctx) => sign.signOnTablet(ctx, input.mcId, input.image));
  r.handle(downloadCardContract, (input, ctx) => sign.staffDownload(ctx, input.mcId));
  r.handle(memberContractPreview, (input, ctx) => s.contractPreview(ctx, input.productId));
  r.handle(memberCardContract, (input, ctx) => sign.memberContract(ctx, input));
  r.handle(memberSignContract, (input, ctx) => sign.memberSign(ctx, input));
  r.handle(memberDownloadContract, (input, ctx) => sign.memberDownload(ctx, input.mcId));
  r.on(cardSold, s.contractOnSale, 'write');
});
