import {
  cardAlertList,
  inactiveMemberList,
  queryAlertDigest,
  updateAlertDigest,
  reportByCourse,
  reportByDay,
  reportBySlot,
  reportByTeacher,
  reportOverview,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { loadDigest, saveDigest } from './digest.ts';
import * as reports from './service.ts';

/** Registers the manager's reports and the card alert list (read-only). */
export const reportsFeature = defineFeature((r) => {
  r.handle(reportOverview, (input, ctx) => reports.overview(ctx, input));
  r.handle(reportByCourse, (input, ctx) => reports.byCourse(ctx, input));
  r.handle(reportByTeacher, (input, ctx) => reports.byTeacher(ctx, input));
  r.handle(reportBySlot, (input, ctx) => reports.bySlot(ctx, input));
  r.handle(reportByDay, (input, ctx) => reports.byDay(ctx, input));
  r.handle(cardAlertList, (input, ctx) => reports.cardAlerts(ctx, input));
  r.handle(queryAlertDigest, (_input, ctx) => loadDigest(ctx.db, ctx.store.id));
  r.handle(
    updateAlertDigest,
    async (input, ctx) => {
      await saveDigest(ctx.db, ctx.store.id, input);
      return null;
    },
    { tx: true },
  );
  r.handle(inactiveMemberList, (input, ctx) => reports.inactiveMembers(ctx, input.days));
});
