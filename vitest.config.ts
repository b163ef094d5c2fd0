import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take 20 s or more (measured with two workers, longest first). Vitest starts the
 * longest first only from the durations it cached on an earlier run; a clean clone (CI) has none
 * and starts the largest files first, which left a long file to finish alone at the end.
 */
const LONG_FIRST = [
  'apps/server/test/hardening/fuzz.test.ts',
  'apps/server/test/hardening/crash.test.ts',
  'apps/server/test/hardening/undo-crash.test.ts',
  'apps/server/test/hardening/no-show-crash.test.ts',
  'apps/server/test/hardening/pay-crash.test.ts',
  'apps/server/test/hardening/races.test.ts',
  'apps/server/test/hardening/isolation.test.ts',
  'apps/server/src/ops/backup-drill.test.ts',
  'apps/server/test/hardening/import-memory.test.ts',
  'apps/server/src/features/payment/exception.test.ts',
  'apps/server/src/features/reminders/reminders.test.ts',
  'apps/server/src/features/batch/week-arrange.test.ts',
  'apps/server/src/features/audit/roles-audit.test.ts',
  'e2e/member-door.test.ts',
  'e2e/management.test.ts',
  'e2e/modals.test.ts',
  'e2e/roles.test.ts',
  'e2e/desk-day.test.ts',
  'e2e/member.test.ts',
  'e2e/api-docs.test.ts',
  'e2e/first-run.test.ts',
  'e2e/card-share.test.ts',
  'e2e/online.test.ts',
  'e2e/reminders.test.ts',
  'e2e/teacher-pay.test.ts',
  'e2e/card-life.test.ts',
];

/** Vitest's order (groups, then projects), with each project's long files moved to its front. */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);

    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? LONG_FIRST.length : i;
    };
    const out: TestSpecification[] = [];
    for (let start = 0; start < sorted.length;) {
      let end = start;
      while (end < sorted.length && sorted[end].project.name === sorted[start].project.name) end += 1;
      out.push(...sorted.slice(start, end).sort((a, b) => rank(a) - rank(b)));
      start = end;
    }
    return out;
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongFirst },
    projects: [
      {
        test: {
          name: 'server',
          include: [
            'apps/server/src/**/*.test.ts',
            'apps/server/test/**/*.test.ts',
            'packages/contract/src/**/*.test.ts',
          ],
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
