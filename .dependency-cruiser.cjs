/**
 * Import rules checked by `npm run check` (`npm run deps`): no cycles anywhere; on the server, a
 * feature uses another feature only through its public modules (`index.ts`, `public.ts`,
 * `rules.ts`), infrastructure (db, lib, outbox, auth) does not reach into features and stands in
 * floors (db, then auth, then lib), the batching of
 * reads stays in the data layer, and the app does not import test code.
 */
const TEST = '(\\.test\\.ts$|^apps/server/test/)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split the shared part out or move the type to where both can import it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-internals',
      severity: 'error',
      comment: 'A feature imports only the public modules of another (public.ts, rules.ts).',
      from: { path: '^apps/server/src/features/([^/]+)/', pathNot: TEST },
      to: {
        path: '^apps/server/src/features/([^/]+)/',
        pathNot: ['^apps/server/src/features/$1/', '/(public|rules)\\.ts$'],
      },
    },
    {
      name: 'cards-through-public',
      severity: 'error',
      comment:
        'Member cards are one feature (features/cards: products, cards, rules and caps, life, sharing, transfer): from outside it is reached only through cards/public.ts (features/index.ts registers its routes).',
      from: {
        path: '^(apps/server|bench|scripts)/',
        pathNot: ['^apps/server/src/features/cards/', '^apps/server/src/features/index\\.ts$'],
      },
      to: { path: '^apps/server/src/features/cards/', pathNot: '^apps/server/src/features/cards/public\\.ts$' },
    },
    {
      name: 'infrastructure-not-features',
      severity: 'error',
      comment: 'db/, lib/, outbox/ and auth/ serve the features; they do not import them.',
      from: { path: '^apps/server/src/(db|lib|outbox|auth)/', pathNot: TEST },
      to: { path: '^apps/server/src/features/' },
    },
    {
      name: 'infrastructure-floors',
      severity: 'error',
      comment:
        'The infrastructure stands in floors, each importing only those below it: db/ (the connection, schema, migrations, locks) at the bottom; auth/ (staff sessions, passwords, rate limits) on db; lib/ (errors, audit, write transactions, events, the call context) on both. The first-run seed and start-up are ops/ (ops/seed, ops/startup.ts), the sign-in calls a feature (features/auth).',
      from: { path: '^apps/server/src/(db|auth)/', pathNot: TEST },
      to: { path: '^apps/server/src/(lib|ops|outbox|api-docs|app\\.ts|main\\.ts)' },
    },
    {
      name: 'db-below-auth',
      severity: 'error',
      comment: 'db/ is the bottom floor: it does not import auth/ (see infrastructure-floors).',
      from: { path: '^apps/server/src/db/', pathNot: TEST },
      to: { path: '^apps/server/src/auth/' },
    },
    {
      name: 'lib-below-the-app',
      severity: 'error',
      comment: 'lib/ serves the features, ops and the app: it does not import them (see infrastructure-floors).',
      from: { path: '^apps/server/src/lib/', pathNot: TEST },
      to: { path: '^apps/server/src/(ops|outbox|api-docs|app\\.ts|main\\.ts)' },
    },
    {
      name: 'event-kinds-stand-alone',
      severity: 'error',
      comment:
        "A feature's event kinds (its events.ts) say what happened and carry plain data: they import lib/events.ts and the contract's types, nothing of any feature.",
      from: { path: '^apps/server/src/features/[^/]+/events\\.ts$' },
      to: { pathNot: ['^apps/server/src/lib/events\\.ts$', '^packages/contract/', 'node_modules'] },
    },
    {
      name: 'batching-in-the-data-layer',
      severity: 'error',
      comment:
        "How reads are sent together (db/fixed.ts: fixed statements, Read, readTogether, sendRead, mapRead) is the data layer's: only db/ and repositories (*repository*.ts, a repositories/ folder) use it. A service awaits a repository function that answers what its use case needs (timetable/booking-context-repository.ts loadBookingContext).",
      from: {
        path: '^apps/server/src/',
        pathNot: ['^apps/server/src/db/', '/[^/]*repository[^/]*\\.ts$', '/repositories/'],
      },
      to: { path: '^apps/server/src/db/fixed\\.ts$' },
    },
    {
      name: 'pipeline-in-db',
      severity: 'error',
      comment:
        "PostgreSQL's pipelining (db/pg-pipeline.ts: statements held back and sent together) is the connection's: only db/ uses it; tests and the benchmarks may count its writes (pgSends).",
      from: { path: '^apps/server/src/', pathNot: ['^apps/server/src/db/', TEST] },
      to: { path: '^apps/server/src/db/pg-pipeline\\.ts$' },
    },
    {
      name: 'no-test-code-in-app',
      severity: 'error',
      comment: 'Test helpers stay out of the app.',
      from: { path: '^apps/server/src/', pathNot: TEST },
      to: { path: TEST },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
    },
  },
};
