import type { TestGateway } from '../helpers/engine.js'
import { form, openSession, pagesGateway } from './helpers.js'

export { form, pagesGateway }

/** A session offering `method`, paid with it on the hosted page: answers the simulator page path. */
export async function payWith(
  t: TestGateway,
  method: string,
  overrides: Record<string, unknown> = {},
  fields = '',
): Promise<{ token: string; path: string; paymentId: string }> {
  const token = await openSession(t, { methods: [method], ...overrides })
  const r = await t.call('POST', `/auth/${token}/method/${method}`, fields)
  const location = String(r.headers.location ?? '')
  const match = /\/apm\/([^/?]+)/.exec(location)
  if (!match)
    throw new Error(`no simulator page for ${method}: ${r.status} ${location} ${r.raw.slice(0, 300)}`)
  return { token, path: `/apm/${match[1]}`, paymentId: decodeURIComponent(match[1] as string) }
}

/** The page's text, markup removed. */
export const text = (html: string): string =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
