import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { GatewayResponse } from '../../core/engine/http.js'
import type { OperationHandler } from '../../core/engine/modules.js'
import { pageContext } from '../page-context.js'
import { pagesDir } from '../pages-dir.js'
import { pageResponse } from '../render.js'
import { TermsPage } from '../TermsPage.js'

/**
 * A client script, read once: plain JavaScript, no build step. `crossOrigin`: a merchant's page on
 * its own origin loads it with a plain <script> tag (the Hosted Payment Fields SDK).
 */
export function script(name: string, options: { crossOrigin?: boolean } = {}): OperationHandler {
  const body = readFileSync(join(pagesDir(), 'assets', name), 'utf8')
  return (): GatewayResponse => ({
    status: 200,
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(options.crossOrigin ? { 'cross-origin-resource-policy': 'cross-origin' } : {}),
    },
    body,
  })
}

/** GET /assets/hosted.js: every page's script. */
export const hostedScript = script('hosted.js')
/** GET /assets/hpf.js: the Hosted Payment Fields' JSON post and the demo page's message log. */
export const hpfScript = script('hpf.js')

/** GET /terms: the platform's general terms (sandbox text). */
export const generalTerms: OperationHandler = ({ ctx, request }) => {
  const page = pageContext(ctx, request)
  return pageResponse(200, <TermsPage t={page.t} lang={page.lang} base={page.base} />)
}
