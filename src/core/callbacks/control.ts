import type { SandboxCallbacksQuery } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { EngineModule, RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { listingResponse, listingWindow } from '../engine/control-listing.js'
import type { CallbackDelivery } from './delivery.js'
import { eventHistory, eventStream } from './event-stream.js'
import { encodeForm, FORM_CONTENT_TYPE } from './form.js'
import { callbacksOf, startCallbacks } from './runtime.js'

/**
 * The callback log and its controls (docs/rules.md#callback-log: "Every attempt is logged and can be
 * replayed"; §6: `GET /sandbox/callbacks`), and the live event stream the CLI and the terminal UI
 * follow. The control API is the sandbox operator's view: every merchant's records are visible.
 */
export const callbacksModule: EngineModule = {
  name: 'callbacks',
  routes: (ctx) => callbackRoutes(ctx),
  start: (ctx) => {
    // Numbered from the start, so a client's Last-Event-ID means the same thing to every client.
    const history = eventHistory(ctx)
    const stop = startCallbacks(ctx)
    return () => {
      stop()
      history.stop()
    }
  },
}

export function callbackRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute<SandboxCallbacksQuery>({
      method: 'GET',
      path: '/sandbox/callbacks',
      summary:
        'Every callback delivery and its attempts, newest first, filtered by merchant, payment, order, state, kind, API and time, with full-text search of ids',
      pipeline: { query: 'sandbox/callbacks-query' },
      response: 'control/callbacks-response',
      handler: ({ input: query }) => {
        const page = Number(query.page ?? 1)
        const perPage = Number(query.per_page ?? 100)
        // Filtered, sorted and paged by the store's indexes: no delivery is read but the page's.
        return listingResponse(
          ctx,
          'deliveries',
          'deliveries',
          {
            where: {
              merchant_key: query.merchant,
              payment_id: query.payment_id,
              order_id: query.order_id,
              state: query.state,
              kind: query.kind,
              api: query.api,
            },
            ...listingWindow(query, page, perPage),
          },
          ['id', 'payment_id', 'order_id'],
          page,
          perPage,
        )
      },
    }),
    declareControlRoute<undefined, CallbackDelivery>({
      method: 'GET',
      path: '/sandbox/callbacks/:id',
      summary: 'One delivery with every attempt (request, response code, body excerpt, latency)',
      pipeline: { load: (c, params) => find(c, params.id) },
      response: 'control/callback-response',
      handler: ({ loaded }) => jsonResponse(200, withRequest(loaded)),
    }),
    declareControlRoute<undefined, CallbackDelivery>({
      method: 'POST',
      path: '/sandbox/callbacks/:id/replay',
      summary: 'Send a delivery again, as a new delivery marked replay_of',
      pipeline: { load: (c, params) => find(c, params.id) },
      response: 'control/callback-replay-response',
      status: 202,
      handler: ({ loaded: original }) => {
        const replay = callbacksOf(ctx).replay(original.id)
        if (!replay) throw fail('SANDBOX_DELIVERY_NOT_FOUND')
        return jsonResponse(202, { id: replay.id, replay_of: original.id, state: replay.state })
      },
    }),
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/callback-urls',
      summary:
        'Notification URLs with recent attempts without an answer or a block (5 time-outs or refused connections within 5 minutes block a URL for 15 minutes)',
      pipeline: {},
      response: 'control/callback-urls-response',
      handler: () => {
        const now = ctx.clock.now()
        const urls = callbacksOf(ctx).urls.states(now)
        return jsonResponse(200, { urls, blocked: urls.filter((u) => u.blocked).length })
      },
    }),
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/events',
      summary: 'Live server-sent events: payments, transactions, callback deliveries, clock moves, resets',
      longLived: true,
      pipeline: {},
      response: {
        none: 'a text/event-stream, not one JSON answer: each event is the engine event as emitted',
      },
      handler: ({ request }) =>
        eventStream(
          ctx,
          request.headers['last-event-id'] ?? request.query.last_event_id,
          request.remoteAddress,
        ),
    }),
  ]
}

function find(ctx: EngineContext, id: string | undefined): CallbackDelivery {
  const delivery = id ? (ctx.store.get('deliveries', id) as CallbackDelivery | undefined) : undefined
  if (!delivery) throw fail('SANDBOX_DELIVERY_NOT_FOUND')
  return delivery
}

/** The delivery with the exact request it is POSTed as. */
const withRequest = (d: CallbackDelivery) => ({
  ...d,
  request: { method: 'POST', url: d.url, content_type: FORM_CONTENT_TYPE, body: encodeForm(d.fields) },
})
