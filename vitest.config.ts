import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    testTimeout: 20_000,
    setupFiles: ['test/setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          pool: 'threads',
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
        },
      },
    ],
  },
})
