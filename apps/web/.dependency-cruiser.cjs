// The web app's layers (npm run check): app -> features -> shared -> api. A feature uses another
// feature only through that feature's index.ts, and no module imports itself round a cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle: split the shared part out, or move it to shared/.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-feature-internals',
      comment: "A feature imports another feature's internals: import its index.ts, or move the part to shared/.",
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: {
        path: '^apps/web/src/features/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'shared-is-below-features',
      comment: 'shared/ and api/ serve the features and the app shell; they import neither.',
      severity: 'error',
      from: { path: '^apps/web/src/(shared|api)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'api-is-the-bottom',
      comment: 'api/ is the request helper only.',
      severity: 'error',
      from: { path: '^apps/web/src/api/' },
      to: { path: '^apps/web/src/shared/' },
    },
    {
      name: 'features-below-app',
      comment: 'The app shell (router, layout, providers) imports the features, not the other way round.',
      severity: 'error',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/app/' },
    },
  ],
  options: {
    includeOnly: '^apps/web/src/',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
