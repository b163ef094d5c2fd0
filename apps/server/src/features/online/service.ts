import { OnlineMsg, type MeetingInfo, type OnlineState } from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import type { Db, Dialect, Executor, Tx } from '../../db/index.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { event, type Events } from '../../lib/events.ts';
import { roomCreated } from './events.ts';
import { enqueue } from '../../outbox/enqueue.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { clearRoom, markOnDemand, onlineSession, putRoom, setRoomError, type OnlineSession } from './repository.ts';
import { providerFor } from './providers/registry.ts';
import type { MeetingProvider, RoomRequest } from './providers/types.ts';
import { loadOnlineSetting } from './settings.ts';

/** Outbox topics of online rooms. */
export const MEETING_CREATE = 'meeting.create';
export const MEETING_CANCEL = 'meeting.cancel';

interface Deps {
  db: Db;
  dialect: Dialect;
  /** The app's listeners: a room created is announced to them. */
  events: Events;
}

/**
 * A write to one session row (its guarded UPDATE is the transaction's first lock, as the engine's
 * lock order wants), with group commit on SQLite.
 */
function writeSession<T>(deps: Deps, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inWriteTx(deps.db, deps.dialect, fn);
}

async function liveOnlineSession(db: Executor, storeId: number, id: number): Promise<OnlineSession> {
  const s = await onlineSession(db, id, storeId);
  if (!s || s.deleted) throw notFound('课程');
  return s;
}

async function roomRequest(db: Executor, s: OnlineSession): Promise<{ req: RoomRequest; provider: MeetingProvider }> {
  const setting = await loadOnlineSetting(db, s.storeId);
  const { meetingType, provider } = providerFor(s.meetingType, setting);
  const req: RoomRequest = {
    session: { id: s.id, storeId: s.storeId, courseName: s.courseName, startTime: s.startTime, endTime: s.endTime },
    teacher: {
      id: s.teacherId,
      name: s.teacherName,
      meetingType: s.meetingType,
      meetingCode: s.meetingCode,
      joinUrl: s.joinUrl,
    },
    meetingType,
    setting,
  };
  return { req, provider };
}

/** Makes the room and returns its meetingInfo; `type` 1 on demand, 2 created at once. */
async function makeRoom(provider: MeetingProvider, req: RoomRequest, type: number) {
  const room = await provider.createRoom(req);
  const info: MeetingInfo = {
    meetingType: req.meetingType,
    meetingCode: room.meetingCode,
    joinUrl: room.joinUrl,
    duration: room.duration,
    type,
  };
  return { room, info };
}

/** Ends a room made by a write that then lost a race; a failure here only leaves an unused room. */
async function dropRoom(provider: MeetingProvider, req: RoomRequest, meetingId: string) {
  if (!provider.remoteRooms) return;
  await provider.cancelRoom(meetingId, req.setting).catch(() => undefined);
}

/**
 * Creates the online classroom of a session (spec section 4). Type 1 with no bookings: the session
 * becomes isOnline 1 (created on demand) and the room is made after its first booking. Otherwise
 * the room is made now (isOnline = type) with its meetingInfo. The provider is checked first, so a
 * missing setting answers 409 at once (该老师未设置固定会议室, "<name>未配置"). A session that
 * already has a room answers 409 该课程已有在线教室; an on-demand one may be upgraded with type 2.
 */
export async function createMeeting(deps: Deps, storeId: number, input: { id: number; type: 1 | 2 }): Promise<void> {
  const s = await liveOnlineSession(deps.db, storeId, input.id);
  audit(deps.db, { kind: 'session', targets: [{ type: 'session', id: s.id }] });
  if (s.isOnline !== 0 && !(s.isOnline === 1 && input.type === 2 && s.meetingInfo === null)) {
    throw conflict(OnlineMsg.roomExists);
  }
  const { req, provider } = await roomRequest(deps.db, s);
  provider.check(req);
  if (input.type === 1 && s.realCount === 0) {
    // The first booking's trigger (migration 0500) queues the room; guard realCount so that a
    // booking committed since the read cannot slip in before the session turns on-demand.
    await writeSession(deps, async (tx) => {
      if (!(await markOnDemand(tx, s.id))) throw conflict(OnlineMsg.stateChanged);
    });
    return;
  }
  const { room, info } = await makeRoom(provider, req, input.type);
  try {
    await writeSession(deps, async (tx) => {
      const stored = await putRoom(tx, s.id, {
        whileOnline: s.isOnline,
        isOnline: input.type,
        meetingId: room.meetingId,
        meetingInfo: JSON.stringify(info),
      });
      if (!stored) throw conflict(OnlineMsg.stateChanged);
      await deps.events.emit(tx, event(roomCreated, { storeId, sessionId: s.id, info }));
    });
  } catch (err) {
    await dropRoom(provider, req, room.meetingId);
    throw err;
  }
}

/**
 * Cancels the online classroom: the session returns to isOnline 0 with no meeting. A room that
 * lives on the provider is ended there by the outbox worker (topic meeting.cancel, retried).
 */
export async function cancelMeeting(deps: Deps, storeId: number, id: number): Promise<void> {
  const s = await liveOnlineSession(deps.db, storeId, id);
  audit(deps.db, { kind: 'session', targets: [{ type: 'session', id: s.id }] });
  if (s.isOnline === 0) throw conflict(OnlineMsg.noRoom);
  await writeSession(deps, async (tx) => {
    if (!(await clearRoom(tx, s.id, s.isOnline, s.meetingId))) throw conflict(OnlineMsg.stateChanged);
    if (s.meetingId !== null && s.meetingInfo !== null) {
      const info = JSON.parse(s.meetingInfo) as MeetingInfo;
      await enqueue(tx, storeId, MEETING_CANCEL, `meeting:${s.id}`, {
        timetableId: s.id,
        meetingId: s.meetingId,
        meetingType: info.meetingType,
      });
    }
  });
}

/** The online state of a session, with the last room-creation failure. */
export async function onlineState(db: Db, storeId: number, id: number): Promise<OnlineState> {
  const s = await liveOnlineSession(db, storeId, id);
  return {
    id: s.id,
    isOnline: s.isOnline,
    meetingId: s.meetingId,
    meetingInfo: s.meetingInfo === null ? null : (JSON.parse(s.meetingInfo) as Record<string, unknown>),
    meetingError: s.meetingError,
  };
}

/**
 * The desk's "try now" for an on-demand room whose creation failed: the same creation as the
 * outbox handler, run in the request. Answers once the room exists (made now, or by the outbox in
 * the meantime); a failure answers 409 with the provider's reason (kept on the session too) and
 * the outbox goes on retrying.
 */
export async function retryOnDemandRoom(deps: Deps, storeId: number, id: number): Promise<void> {
  const s = await liveOnlineSession(deps.db, storeId, id);
  audit(deps.db, { kind: 'session', targets: [{ type: 'session', id: s.id }] });
  if (s.meetingInfo !== null) return;
  if (s.isOnline !== 1) throw conflict(OnlineMsg.noRoom);
  if (s.realCount === 0) throw conflict(OnlineMsg.waitingForBooking);
  try {
    await createOnDemandRoom(deps, id);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw conflict(OnlineMsg.createFailed(err instanceof Error ? err.message : String(err)));
  }
  const after = await liveOnlineSession(deps.db, storeId, id);
  if (after.meetingInfo === null) throw conflict(after.meetingError ?? OnlineMsg.stateChanged);
}

/**
 * Outbox handler of meeting.create: makes the room of an on-demand session that got its first
 * booking. Does nothing when there is nothing to do any more (cancelled, deleted, room made). A
 * provider failure is stored in timetable.meetingError (shown on the panel) and thrown, so the
 * worker retries with backoff; the booking that queued it is long committed.
 */
export async function createOnDemandRoom(deps: Deps, sessionId: number): Promise<void> {
  const s = await onlineSession(deps.db, sessionId);
  if (!s || s.deleted || s.isOnline !== 1 || s.meetingInfo !== null || s.realCount === 0) return;
  let made: Awaited<ReturnType<typeof makeRoom>>;
  let request: Awaited<ReturnType<typeof roomRequest>>;
  try {
    request = await roomRequest(deps.db, s);
    made = await makeRoom(request.provider, request.req, 1);
  } catch (err) {
    const msg =
      err instanceof AppError ? err.message : OnlineMsg.createFailed(err instanceof Error ? err.message : String(err));
    await writeSession(deps, (tx) => setRoomError(tx, s.id, msg.slice(0, 500)));
    throw err;
  }
  const { room, info } = made;
  const stored = await writeSession(deps, async (tx) => {
    const put = await putRoom(tx, s.id, {
      whileOnline: 1,
      meetingId: room.meetingId,
      meetingInfo: JSON.stringify(info),
    });
    if (!put) return false;
    await deps.events.emit(tx, event(roomCreated, { storeId: s.storeId, sessionId: s.id, info }));
    return true;
  });
  if (!stored) await dropRoom(request.provider, request.req, room.meetingId);
}

/** Outbox handler of meeting.cancel: ends a provider-side room of a cancelled online classroom. */
export async function cancelRemoteRoom(
  deps: { db: Db },
  storeId: number,
  p: { meetingId: string; meetingType: number },
): Promise<void> {
  const setting = await loadOnlineSetting(deps.db, storeId);
  const { provider } = providerFor(p.meetingType, setting);
  if (provider.remoteRooms) await provider.cancelRoom(p.meetingId, setting);
}
