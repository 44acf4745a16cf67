import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { createFetchHandler } from '../../src/adapters/fetch/fetch-handler.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { Banner, tokenBanner } from '../../src/ui/Banner.js'
import { createControlClient } from '../../src/ui/client.js'
import { Header, linkLabel } from '../../src/ui/Header.js'
import { createTestGateway, demoConfig } from '../helpers/engine.js'
import { BASE } from './harness.js'
import { renderApp } from './render-app.js'

afterEach(() => cleanup())

/**
 * Issue 33 item 4: a sandbox served with a control token (docs/rules.md#beyond-the-interface,
 * SANDBOX_CONTROL_TOKEN_INVALID) shows "token needed" (none given) or "wrong token" (another one),
 * never OFFLINE: it answers, and says why it will not talk to the console.
 */
const TOKEN = 'the-control-token-0123456789'

function tokenSandboxClient(controlToken?: string) {
  const t = createTestGateway(DEFAULT_MODULES, { ...demoConfig(), control_token: TOKEN })
  const handler = createFetchHandler(t.gateway, { base: BASE })
  return createControlClient({
    baseUrl: BASE,
    fetch: (input, init) => handler(new Request(input, init)),
    ...(controlToken ? { controlToken } : {}),
  })
}

describe('a sandbox with a control token', () => {
  it('without a token: the header says TOKEN NEEDED and the banner how to give it, not OFFLINE', async () => {
    const ui = renderApp(tokenSandboxClient(), { reconnectDelaysMs: [60_000] })
    const frame = await ui.waitForText('[TOKEN NEEDED]')
    expect(frame).toContain(tokenBanner(false))
    expect(frame).toContain('tui --control-token TOKEN')
    expect(frame).not.toContain('OFFLINE')
    expect(frame).not.toContain('DISCONNECTED')
  })

  it('with another token: the header says WRONG TOKEN and the banner blames --control-token', async () => {
    const ui = renderApp(tokenSandboxClient('not-the-token-0123456789'), { reconnectDelaysMs: [60_000] })
    const frame = await ui.waitForText('[WRONG TOKEN]')
    expect(frame).toContain(tokenBanner(true))
    expect(frame).not.toContain('OFFLINE')
  })

  it('with its token: live', async () => {
    const ui = renderApp(tokenSandboxClient(TOKEN), { reconnectDelaysMs: [60_000] })
    await ui.waitForText('[live]')
  })

  it('the words fit 80 columns and a sandbox that does not answer is still OFFLINE', () => {
    for (const given of [true, false]) expect(tokenBanner(given).length).toBeLessThanOrEqual(80)
    const token = { kind: 'token' as const, given: false, error: 'x', since: 0 }
    expect(linkLabel(token)).toBe('TOKEN NEEDED')
    expect(linkLabel({ ...token, given: true })).toBe('WRONG TOKEN')
    const offline = {
      kind: 'reconnecting' as const,
      attempt: 1,
      retryInMs: 1,
      error: 'ECONNREFUSED',
      since: 0,
    }
    expect(linkLabel(offline)).toBe('OFFLINE')
    const header = render(<Header mode="url" url={BASE} connection={token} width={80} />)
    expect(header.lastFrame()).toContain('[TOKEN NEEDED]')
    const banner = render(<Banner connection={token} width={80} now={0} />)
    expect(banner.lastFrame()).toBe(tokenBanner(false))
  })
})
