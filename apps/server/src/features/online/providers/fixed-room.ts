import { OnlineMsg } from '@studio/contract';
import { conflict } from '../../../lib/errors.ts';
import type { MeetingProvider, RoomRequest } from './types.ts';

/** Types 1-3: the teacher's own fixed room (meetingCode and joinUrl on the teacher). */
export const fixedRoomProvider: MeetingProvider = {
  name: 'fixed',
  label: '固定会议室',
  remoteRooms: false,
  check(req: RoomRequest) {
    if (!req.teacher.meetingCode || !req.teacher.joinUrl) throw conflict(OnlineMsg.noFixedRoom);
  },
  async createRoom(req) {
    this.check(req);
    const code = req.teacher.meetingCode as string;
    return { meetingId: code, meetingCode: code, joinUrl: req.teacher.joinUrl as string, duration: 0 };
  },
  async cancelRoom() {},
  async roomInfo() {
    return null;
  },
};
