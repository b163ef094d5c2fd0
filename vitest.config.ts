import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'packages/contract/src/**/*.test.ts'],
          environment: 'node',
          // A call's business write outside an audited transaction throws in the suites (lib/audit.ts scopedDb).
          env: { AUDIT_STRICT: '1' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Two files at a time, as on the machine's two cores: vitest's default in a run is one fewer
          // than the cores (one here), which leaves a core idle while a file waits on PostgreSQL or on
          // the instances it starts (measured: 705 s for the API suites alone, 517 s with two).
          maxWorkers: 2,
          // The API suites run first, then the browser suites (different worker counts need distinct groups).
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // Unit tests of the web apps' pure helpers, the back office's and the members' page's (no browser, no DOM).
          name: 'web',
          include: ['apps/web/src/**/*.test.ts', 'apps/member/src/**/*.test.ts'],
          environment: 'node',
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
          // Each browser test file starts its own server and Chromium; two at a time on two cores.
          maxWorkers: 2,
          globalSetup: ['e2e/global-setup.ts'],
          // What a person waits for, polled (a chart painted, a count shown): as long as the page's
          // own waits (harness.ts setDefaultTimeout), not vitest's 1 s, which a loaded machine exceeds.
          expect: { poll: { timeout: 15_000 } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
