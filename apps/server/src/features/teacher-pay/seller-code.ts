import { SELLER_CODE } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { sellerByCode } from './seller-link-repository.ts';

/** The seller a member's order names: the staff member of the link's code, or null (none, unknown, disabled). */
export async function sellerOfCode(ex: Executor, storeId: number, code: string | undefined): Promise<number | null> {
  if (!code || !SELLER_CODE.test(code)) return null;
  return sellerByCode(ex, storeId, code);
}
