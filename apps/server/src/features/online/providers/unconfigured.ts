import { OnlineMsg } from '@studio/contract';
import { conflict } from '../../../lib/errors.ts';
import type { MeetingProvider } from './types.ts';

/**
 * An API provider this installation has no account for. It plugs in like any other and answers
 * 409 "<name>未配置" for every call; a real client (Zoom, Tencent Meeting, ClassIn) replaces it
 * with one that reads its credentials from the store's online setting.
 */
export function unconfiguredProvider(name: string, label: string): MeetingProvider {
  const refuse = () => {
    throw conflict(OnlineMsg.notConfigured(label));
  };
  return {
    name,
    label,
    remoteRooms: true,
    check: refuse,
    createRoom: async () => refuse(),
    cancelRoom: async () => refuse(),
    roomInfo: async () => refuse(),
  };
}
