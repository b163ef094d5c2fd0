import { Msg } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { forbidden } from '../../lib/errors.ts';
import { pendingSessionTeacher, reservationSessionTeacher, sessionOfStore } from './repository.ts';

/**
 * A teacher may only name a session they teach (or a booking or pending booking of one): checked by the route
 * loop before the handler runs, for the calls whose contract says which payload field names it. A
 * session that does not exist is left to the handler (its own 404).
 */
export async function requireOwnSession(
  db: Executor,
  storeId: number,
  teacherId: number | null,
  owns: { field: string; via: 'session' | 'pending' | 'reservation' },
  input: unknown,
): Promise<void> {
  const id = (input as Record<string, unknown>)[owns.field];
  if (typeof id !== 'number') return;
  const row =
    owns.via === 'session'
      ? await sessionOfStore(db, storeId, id)
      : owns.via === 'pending'
        ? await pendingSessionTeacher(db, storeId, id)
        : await reservationSessionTeacher(db, storeId, id);
  if (row && row.teacherId !== teacherId) throw forbidden(Msg.forbiddenSession);
}
