import { allCalls, defineCall, STORE_API } from '@studio/contract';
import { z } from 'zod';

const CREATE_PATH = `${STORE_API}/create/timetable/meeting`;
const CANCEL_PATH = `${STORE_API}/cancel/timetable/online`;

/** The online classroom calls, when the contract has them (the buttons hide otherwise). */
export const createMeeting = allCalls.find((c) => c.path === CREATE_PATH)
  ? defineCall({
      path: CREATE_PATH,
      auth: 'store',
      req: z.custom<{ id: number; type: 1 | 2 }>(),
      res: z.unknown(),
    })
  : null;

export const cancelOnline = allCalls.find((c) => c.path === CANCEL_PATH)
  ? defineCall({ path: CANCEL_PATH, auth: 'store', req: z.custom<{ id: number }>(), res: z.unknown() })
  : null;
