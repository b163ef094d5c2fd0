import type { Db } from '../index.ts';

/** Loads the demo studio's reference data, members, cards and sessions. */
export async function loadDemoData(_db: Db, _storeId: number, _staffId: number): Promise<void> {
  // Filled in with the reference data and the engine.
}
