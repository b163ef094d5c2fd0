import crypto from 'node:crypto';
import { OnlineMsg } from '@studio/contract';
import { conflict } from '../../../lib/errors.ts';
import type { MeetingProvider, RoomRequest } from './types.ts';

/** 16 random bytes, url-safe base64: 128 bits, not guessable. */
export function roomName(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/**
 * Jitsi Meet (or any compatible server, e.g. a self-hosted one on a private network): a room is
 * just a URL on the store's base URL, made on first join, so nothing is called over the network and
 * no account is needed. The room name is random, so only people given the link can find the room.
 */
export const jitsiProvider: MeetingProvider = {
  name: 'jitsi',
  label: 'Jitsi Meet',
  remoteRooms: false,
  check(req: RoomRequest) {
    if (!req.setting.jitsiBaseUrl) throw conflict(OnlineMsg.notConfigured(this.label));
  },
  async createRoom(req) {
    this.check(req);
    const name = roomName();
    return { meetingId: name, meetingCode: name, joinUrl: `${req.setting.jitsiBaseUrl}/${name}`, duration: 0 };
  },
  async cancelRoom() {},
  async roomInfo() {
    return null;
  },
};
