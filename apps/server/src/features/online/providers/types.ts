import type { OnlineSetting } from '@studio/contract';

/** What a provider needs to open a room for a session. */
export interface RoomRequest {
  session: { id: number; storeId: number; courseName: string; startTime: string; endTime: string };
  teacher: { id: number; name: string; meetingType: number | null; meetingCode: string | null; joinUrl: string | null };
  /** The online tool type (spec section 3: 1-3 fixed rooms, 4-6 and 9 dynamic). */
  meetingType: number;
  setting: OnlineSetting;
}

/** A room as the provider made it; `duration` in seconds, 0 until the provider reports one. */
export interface Room {
  meetingId: string;
  meetingCode: string;
  joinUrl: string;
  duration: number;
}

/**
 * A meeting service behind one interface. Every method throws an AppError a person can act on
 * (409 "<name>未配置", 409 该老师未设置固定会议室) or a plain Error for a passing failure.
 */
export interface MeetingProvider {
  /** Name in settings (`providers: {"4": "jitsi"}`) and in messages. */
  readonly name: string;
  readonly label: string;
  /** Throws when the provider cannot make a room for this request (missing settings). */
  check(req: RoomRequest): void;
  createRoom(req: RoomRequest): Promise<Room>;
  /** Ends a room; only called when `remoteRooms` is true (rooms that live on the provider). */
  cancelRoom(meetingId: string, setting: OnlineSetting): Promise<void>;
  /** The room's current duration (seconds) as the provider reports it, or null when unknown. */
  roomInfo(meetingId: string, setting: OnlineSetting): Promise<{ duration: number } | null>;
  /** True when rooms exist on the provider's side and must be cancelled there. */
  readonly remoteRooms: boolean;
}
