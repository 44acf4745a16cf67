import { sentMessages, startMessages } from '../../core/apm/messages.js'
import { jsonResponse } from '../../core/engine/http.js'
import type { EngineModule } from '../../core/engine/modules.js'
import { declareControlRoute } from '../../core/engine/pipeline.js'
import { lazyHandlers } from '../lazy.js'

/** GET /sandbox/messages[?payment_id=]: the payment links and codes the simulated connectors "sent". */
const messagesRoute = declareControlRoute<{ payment_id?: string }>({
  method: 'GET',
  path: '/sandbox/messages',
  summary: 'Messages the simulated connectors sent to payers (ptn-email/ptn-sms links, beeline codes)',
  pipeline: { query: 'control/messages-query' },
  response: 'control/messages-response',
  handler: ({ ctx, input }) =>
    jsonResponse(200, { messages: sentMessages(ctx, input.payment_id || undefined) }),
})

const apmPages = lazyHandlers(() => import('./handlers.js'))
const page = apmPages.route

/**
 * The simulator pages of the alternative methods (docs/rules.md#test-data (sandbox)), one view per
 * behaviour group of the catalogue (2.2.2, 2.2.3), at the address the APM connector sends payers
 * to (`apmPageUrl`). Registered beside the hosted pages.
 */
export const apmPagesModule: EngineModule = {
  name: 'apm-pages',
  start: (ctx) => startMessages(ctx),
  routes: () => [
    page(
      'GET',
      '/apm/:paymentId',
      (h) => h.showApm,
      "An alternative method's simulator page (HTML), per behaviour group",
    ),
    page(
      'POST',
      '/apm/:paymentId/outcome',
      (h) => h.chooseOutcome,
      'The payer picks the outcome on the simulator page: outcome=approve|decline|pending|expire (form post)',
    ),
    page(
      'GET',
      '/apm/:paymentId/state',
      (h) => h.apmState,
      'Where an APM payment stands (JSON the waiting pages poll)',
    ),
    page('GET', '/apm/:paymentId/ticket.pdf', (h) => h.axxiTicket, "axxi-cash's payment ticket (PDF)"),
    page('GET', '/assets/apm.js', (h) => h.apmScript, "The APM simulator pages' client script"),
    messagesRoute,
  ],
}
