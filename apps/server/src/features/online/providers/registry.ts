import { DYNAMIC_ROOM_TYPES, FIXED_ROOM_TYPES, OnlineMsg, type OnlineSetting } from '@studio/contract';
import { conflict } from '../../../lib/errors.ts';
import { fixedRoomProvider } from './fixed-room.ts';
import { jitsiProvider } from './jitsi.ts';
import type { MeetingProvider } from './types.ts';
import { unconfiguredProvider } from './unconfigured.ts';

const providers = new Map<string, MeetingProvider>();

/** Adds (or replaces) a provider by name; a store selects it per dynamic type in its online setting. */
export function registerProvider(p: MeetingProvider): void {
  providers.set(p.name, p);
}

registerProvider(jitsiProvider);
registerProvider(unconfiguredProvider('zoom', 'Zoom'));
registerProvider(unconfiguredProvider('tencent', '腾讯会议'));
registerProvider(unconfiguredProvider('classin', 'ClassIn'));

const isFixed = (t: number) => (FIXED_ROOM_TYPES as readonly number[]).includes(t);
const isDynamic = (t: number) => (DYNAMIC_ROOM_TYPES as readonly number[]).includes(t);

/**
 * The online tool type of a teacher's sessions (the teacher's meetingType, else the store's
 * default) and the provider that serves it: 1-3 the fixed room, 4-6 and 9 the provider the store
 * chose for that type (Jitsi when it chose none). 409 for a type the product does not know.
 */
export function providerFor(
  teacherType: number | null,
  setting: OnlineSetting,
): { meetingType: number; provider: MeetingProvider } {
  const meetingType = teacherType ?? setting.defaultType;
  if (isFixed(meetingType)) return { meetingType, provider: fixedRoomProvider };
  if (!isDynamic(meetingType)) throw conflict(OnlineMsg.unknownType(meetingType));
  const name = setting.providers[String(meetingType) as '4'] ?? jitsiProvider.name;
  const provider = providers.get(name);
  if (!provider) throw conflict(OnlineMsg.providerName(name));
  return { meetingType, provider };
}
