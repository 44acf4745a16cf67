import type { EngineModule } from '../core/engine/modules.js'
import { lazyHandlers } from './lazy.js'

const pages = lazyHandlers(() => import('./handlers/index.js'))

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
const route = pages.route

export const hostedPagesModule: EngineModule = {
  name: 'hosted-pages',
  routes: () => [
    route('GET', '/auth/:token', (h) => h.showCheckout, 'Hosted payment page of a Checkout session (HTML)'),
    route('POST', '/auth/:token/pay', (h) => h.payByCard, 'The hosted page card form (form post)'),
    route(
      'POST',
      '/auth/:token/method/:id',
      (h) => h.payByMethod,
      "A non-card method's page fields (form post)",
    ),
    route(
      'POST',
      '/auth/:token/cancel',
      (h) => h.cancelCheckout,
      'The payer cancels: redirect to cancel_url',
    ),
    route('GET', '/acs/:paymentId', (h) => h.showStep('acs'), 'Sandbox 3-D Secure ACS page'),
    // docs/rules.md#page-guard: an S2S merchant's page posts the payer here (redirect_params): an arrival.
    route('POST', '/acs/:paymentId', (h) => h.completeStep('acs'), '3-D Secure result: result=pass|fail', {
      crossSite: 'arrival',
    }),
    route('GET', '/redirect-sim/:paymentId', (h) => h.showStep('redirect'), 'Card redirect simulator page'),
    route(
      'POST',
      '/redirect-sim/:paymentId',
      (h) => h.completeStep('redirect'),
      'The payer returns from the redirect',
      { crossSite: 'arrival' },
    ),
    // Before /hpf/:token, which would otherwise take `demo` for a token.
    route('GET', '/hpf/demo', (h) => h.showHpfDemo, 'Hosted Payment Fields demo page for merchants'),
    route('POST', '/hpf/demo', (h) => h.createHpfDemo, 'A demo session token for the built-in demo merchant'),
    route(
      'GET',
      '/hpf/:token',
      (h) => h.showHpf,
      'Hosted Payment Fields for a session token (HTML, for an iframe)',
    ),
    route('POST', '/hpf/:token/pay', (h) => h.payHpf, 'Hosted Payment Fields posted without script'),
    route('GET', '/terms', (h) => h.generalTerms, 'General Terms & Conditions page'),
    route('GET', '/assets/hosted.js', (h) => h.hostedScript, "The hosted pages' client script"),
    route('GET', '/assets/hpf.js', (h) => h.hpfScript, "The Hosted Payment Fields' client script"),
    // docs/rules.md#hosted-payment-fields: the platform's Hosted Payment Fields script and the frames it puts on the merchant's page.
    route(
      'GET',
      '/sdk/hosted-fields.js',
      (h) => h.hostedFieldsSdk,
      'The HostedFields script for merchant pages',
    ),
    route(
      'GET',
      '/sdk/hosted-fields/:token/:field',
      (h) => h.showHostedField,
      'One Hosted Payment Field frame',
    ),
    route(
      'POST',
      '/sdk/hosted-fields/:token/collect',
      (h) => h.collectHostedFieldsRoute,
      "The card field's frame sends the fields' values into the session (collectIframesData)",
      { api: 'checkout', request: 'sandbox/hpf-collect-request.schema.json' },
    ),
    route(
      'GET',
      '/assets/hosted-field.js',
      (h) => h.hostedFieldScript,
      "A Hosted Payment Field frame's script",
    ),
    route('GET', '/assets/hpf-demo.js', (h) => h.hpfDemoScript, "The demo merchant page's script"),
  ],
}
