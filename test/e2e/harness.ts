import { vi } from 'vitest'

// Browser steps on a loaded 2-core machine: bounds, not expected durations (waits end when the
// page is there). A file may also wait for a browser slot (browser.ts) before its first test.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 600_000 })

export { type E2e, fillCard, PASSWORD, startE2e } from './site.js'
