import type { EngineModule, RouteDefinition } from '../core/engine/modules.js'
import { cancelCheckout, showCheckout } from './handlers/checkout.js'
import {
  collectHostedFieldsRoute,
  createHpfDemo,
  hostedFieldScript,
  hostedFieldsSdk,
  hpfDemoScript,
  payHpf,
  showHostedField,
  showHpf,
  showHpfDemo,
} from './handlers/hpf.js'
import { payByCard, payByMethod } from './handlers/pay.js'
import { completeStep, showStep } from './handlers/payer-step.js'
import { generalTerms, hostedScript, hpfScript } from './handlers/static.js'

/**
 * The payer's pages, rendered on the server with React (no hydration) plus one small script.
 * Every page works without script; the script only adds checks as you type, the pay button's
 * Terms & Conditions lock, the expiry countdown and the url_target continue button.
 *
 * Building a new page on this framework (for example a method's simulator page):
 * `pageContext(ctx, request, session, body)` gives the language and strings; render a component
 * wrapped in `Document` and `Shell` with `pageResponse(status, <Page/>)`; answer a form POST with
 * `seeOther(...)`; send the payer back to the merchant with `afterPayment(page, session, payment)`
 * (success, error URL or the page again) or `handoff(page, session, outcome, payment)`.
 */
const route = (
  method: RouteDefinition['method'],
  path: string,
  handler: RouteDefinition['handler'],
  summary: string,
): RouteDefinition => ({ method, path, api: 'page', handler, summary })

export const hostedPagesModule: EngineModule = {
  name: 'hosted-pages',
  routes: () => [
    route('GET', '/auth/:token', showCheckout, 'Hosted payment page of a Checkout session (HTML)'),
    route('POST', '/auth/:token/pay', payByCard, 'The hosted page card form (form post)'),
    route('POST', '/auth/:token/method/:id', payByMethod, "A non-card method's page fields (form post)"),
    route('POST', '/auth/:token/cancel', cancelCheckout, 'The payer cancels: redirect to cancel_url'),
    route('GET', '/acs/:paymentId', showStep('acs'), 'Sandbox 3-D Secure ACS page'),
    route('POST', '/acs/:paymentId', completeStep('acs'), '3-D Secure result: result=pass|fail'),
    route('GET', '/redirect-sim/:paymentId', showStep('redirect'), 'Card redirect simulator page'),
    route(
      'POST',
      '/redirect-sim/:paymentId',
      completeStep('redirect'),
      'The payer returns from the redirect',
    ),
    // Before /hpf/:token, which would otherwise take `demo` for a token.
    route('GET', '/hpf/demo', showHpfDemo, 'Hosted Payment Fields demo page for merchants'),
    route('POST', '/hpf/demo', createHpfDemo, 'A demo session token for the built-in demo merchant'),
    route('GET', '/hpf/:token', showHpf, 'Hosted Payment Fields for a session token (HTML, for an iframe)'),
    route('POST', '/hpf/:token/pay', payHpf, 'Hosted Payment Fields posted without script'),
    route('GET', '/terms', generalTerms, 'General Terms & Conditions page'),
    route('GET', '/assets/hosted.js', hostedScript, "The hosted pages' client script"),
    route('GET', '/assets/hpf.js', hpfScript, "The Hosted Payment Fields' client script"),
    // decisions.md 5: the platform's Hosted Payment Fields script and the frames it puts on the merchant's page.
    route('GET', '/sdk/hosted-fields.js', hostedFieldsSdk, 'The HostedFields script for merchant pages'),
    route('GET', '/sdk/hosted-fields/:token/:field', showHostedField, 'One Hosted Payment Field frame'),
    {
      method: 'POST',
      path: '/sdk/hosted-fields/:token/collect',
      api: 'checkout',
      handler: collectHostedFieldsRoute,
      summary: "The card field's frame sends the fields' values into the session (collectIframesData)",
      request: 'sandbox/hpf-collect-request.schema.json',
    },
    route('GET', '/assets/hosted-field.js', hostedFieldScript, "A Hosted Payment Field frame's script"),
    route('GET', '/assets/hpf-demo.js', hpfDemoScript, "The demo merchant page's script"),
  ],
}
