import { afterAll, beforeAll, vi } from 'vitest'
import { takeSlot } from './browser.js'

// Browser steps on a loaded 2-core machine: bounds, not expected durations (waits end when the
// page is there). A file may also wait for a browser slot (browser.ts) before its first test.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 600_000 })

export { type E2e, fillCard, PASSWORD, startE2e } from './site.js'

/**
 * Waits for the file's browser slot before its first test and gives it back after its last:
 * called at a test file's top level, before the hook that starts the browser. Waiting for a slot
 * has no deadline (timeout 0): with several runs on one machine it lasts as long as the others'
 * browser tests, which is not a hang; the browser's own steps keep their bounds.
 */
export function holdBrowserSlot(): void {
  let release: (() => void) | undefined
  beforeAll(async () => {
    release = await takeSlot()
  }, 0)
  // afterAll hooks run last-registered first: this one after the file closed its browsers.
  afterAll(() => release?.())
}
