import {
  memberBindWechat,
  memberQueryNotifyPref,
  memberUpdateNotifyPref,
  memberWechatAuth,
  memberWechatState,
  queryNotifyLog,
  queryNotifySetting,
  sendNotifyTest,
  updateNotifySetting,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { leaveDecided } from '../cards/public.ts';
import { lessonBooked, lessonCancelled, lessonConfirmed, sessionChanged, sessionDeleted } from '../timetable/public.ts';
import { waitlistPromoted } from '../waitlist/public.ts';
import {
  onLeaveDecided,
  onLessonBooked,
  onLessonCancelled,
  onLessonConfirmed,
  onPromoted,
  onSessionChanged,
  onSessionDeleted,
} from './queue.ts';
import { issueWechatState } from './openid.ts';
import { onSessionChangedTrials } from './trial.ts';
import * as svc from './service.ts';

/** Reminders to members: the store's setting, the send log, members' switches and WeChat binding. */
export const remindersFeature = defineFeature((r) => {
  // Reminders planned or withdrawn with the change (the write stage).
  r.on(waitlistPromoted, onPromoted, 'write');
  r.on(sessionDeleted, onSessionDeleted, 'write');
  r.on(sessionChanged, onSessionChanged, 'write');
  r.on(sessionChanged, onSessionChangedTrials, 'write');
  r.on(leaveDecided, onLeaveDecided, 'write');
  r.on(lessonBooked, onLessonBooked, 'write');
  r.on(lessonConfirmed, onLessonConfirmed, 'write');
  r.on(lessonCancelled, onLessonCancelled, 'write');
  r.handle(queryNotifySetting, (_input, ctx) => svc.querySetting(ctx));
  r.handle(updateNotifySetting, (input, ctx) => svc.updateSetting(ctx, input));
  r.handle(sendNotifyTest, (input, ctx) => svc.sendTest(ctx, input));
  r.handle(queryNotifyLog, (input, ctx) => svc.queryLog(ctx, input));
  r.handle(memberQueryNotifyPref, (_input, ctx) => svc.myPrefs(ctx));
  r.handle(memberUpdateNotifyPref, (input, ctx) => svc.setMyPref(ctx, input));
  r.handle(memberBindWechat, (input, ctx) => svc.bindWechat(ctx, input));
  r.handle(memberWechatState, (_input, ctx) => issueWechatState(ctx));
  r.handle(memberWechatAuth, ({ storeId }, ctx) => svc.wechatAuth(ctx, storeId));
});
