/**
 * The server's features as rooms (`npm run deps`, after .dependency-cruiser.cjs): no cycle between
 * feature folders. A feature uses the ones below it and is told of what happens above it by their
 * events (lib/events.ts): reference data (members, teachers, courses) knows of no cards, staff or store
 * settings; cards know of no timetable or reminders (a card's leave and transfer announce the bookings
 * they give up, `cardBookingsDropped`, and a leave's decision, `leaveDecided`). Only the features'
 * own app code counts: tests may reach across in any direction, and db/, lib/ and the app shell are
 * checked by the main config (.dependency-cruiser.cjs, whose resolution options these repeat).
 */
module.exports = {
  forbidden: [
    {
      name: 'feature-folders-acyclic',
      severity: 'error',
      comment:
        'Two feature folders import each other (maybe through others): move the code to the feature it belongs to, or let the lower one announce an event the higher one listens to.',
      scope: 'folder',
      from: { path: '^apps/server/src/features/[^/]+' },
      to: { path: '^apps/server/src/features/[^/]+', circular: true },
    },
  ],
  options: {
    includeOnly: '^apps/server/src/features/',
    exclude: { path: '(node_modules|/dist/|\\.test\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
    },
  },
};
