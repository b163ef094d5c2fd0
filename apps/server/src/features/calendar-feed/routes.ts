import {
  memberCalendarFeed,
  resetMemberCalendarFeed,
  resetTeacherCalendarFeed,
  teacherCalendarFeed,
} from '@studio/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';
import { defineFeature } from '../../lib/feature.ts';
import { feedOf, feedText, teacherFeedOf, TOKEN_RE } from './service.ts';

/** 日历订阅: the addresses of the members' and teachers' calendar feeds. */
export const calendarFeedFeature = defineFeature((r) => {
  r.handle(memberCalendarFeed, (_input, ctx) => feedOf(ctx, 'member', ctx.member.id, false));
  r.handle(resetMemberCalendarFeed, (_input, ctx) => feedOf(ctx, 'member', ctx.member.id, true));
  r.handle(teacherCalendarFeed, (input, ctx) => teacherFeedOf(ctx, input.teacherId, false));
  r.handle(resetTeacherCalendarFeed, (input, ctx) => teacherFeedOf(ctx, input.teacherId, true));
});

/**
 * GET /calendar/:token.ics answers the feed a phone's calendar subscribed to. The token is the only
 * key (calendar apps send no cookie); an unknown or malformed one is a plain 404, which says nothing
 * about which tokens exist. The contract describes POST calls only, so app.ts registers this route.
 */
export function registerCalendarFeedRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { file: string } }>('/calendar/:file', async (req, reply) => {
    const token = req.params.file.replace(/\.ics$/, '');
    const text = TOKEN_RE.test(token) ? await feedText(deps.db, token) : null;
    if (text === null) {
      return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('日历不存在或地址已重置');
    }
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline; filename="calendar.ics"')
      .send(text);
  });
}
