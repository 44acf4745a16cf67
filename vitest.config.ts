import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * Test files share their workers' module graph (`isolate: false`): the engine, the schema
 * registry and its compiled validators load once per worker instead of once per file, which cut
 * the suite's CPU time by about half (issue 15). Files must not leave module state behind; the
 * one that must set the environment before ink loads, and the one that replaces the engine's
 * validation sentences (vi.mock), run isolated in their own project.
 */
const ISOLATED = ['test/ui/no-color.test.tsx', 'test/conformance/rule-invariance.test.ts']

export default defineConfig({
  test: {
    // Bounds for an oversubscribed machine (four `npm test` runs on 2 cores), not expected
    // durations: no test waits for a time to pass (clocks are injected, waits end on events), so a
    // bound only decides how long a real hang takes to be reported. Hooks start sandboxes,
    // merchants and child processes, which a loaded machine stretches the most.
    // A test's own bound: 120 s. Four runs at once (load 13-14) took the heaviest tests 30-40 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's own bound (vitest's default is 1 s): a page that a starved browser redraws
    // late is still right; half a test's time-out reports a real hang with the value it last saw.
    expect: { poll: { timeout: 30_000 } },
    // vitest's default for `run` is one worker fewer than the cores: one on a 2-core CI machine,
    // while many files mostly wait on a child process (chromium, npm, merchants). As many as the
    // cores: 2 cores went from 290 s (one worker) to 230 s (two); three gave 210 s but left the
    // terminal UI's tests short of CPU (keys sent before a frame's effects ran were lost).
    maxWorkers: availableParallelism(),
    setupFiles: ['test/setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ISOLATED,
          pool: 'threads',
          isolate: false,
        },
      },
      {
        // FORCE_COLOR must be set before ink's colour library first loads in the worker.
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          pool: 'threads',
          isolate: true,
        },
      },
      {
        // The API suites again, every request through express and supertest instead of gateway.handle.
        extends: true,
        test: {
          name: 'api-over-http',
          include: ['test/checkout/**/*.test.ts', 'test/s2s-card/**/*.test.ts', 'test/s2s-apm/**/*.test.ts'],
          env: { PAYSANDBOX_TEST_TRANSPORT: 'http' },
          pool: 'threads',
          isolate: false,
        },
      },
    ],
  },
})
