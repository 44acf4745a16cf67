import { afterEach, describe, expect, it } from 'vitest'
import { CHROMIUM_HELP, chromiumPath } from './browser.js'

describe('finding the browser for the page tests', () => {
  const saved = process.env.PAYSANDBOX_CHROMIUM
  afterEach(() => {
    if (saved === undefined) delete process.env.PAYSANDBOX_CHROMIUM
    else process.env.PAYSANDBOX_CHROMIUM = saved
  })

  it('fails with what to install, rather than skipping, when the browser is missing', () => {
    process.env.PAYSANDBOX_CHROMIUM = '/nonexistent/chromium'
    expect(() => chromiumPath()).toThrow(/apt-get install -y chromium/)
    expect(CHROMIUM_HELP).toContain('PAYSANDBOX_CHROMIUM')
  })

  it("finds Debian's chromium here", () => {
    delete process.env.PAYSANDBOX_CHROMIUM
    expect(chromiumPath()).toMatch(/chrom/)
  })
})
