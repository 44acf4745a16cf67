import type { ApmOutcome } from '../core/apm/types.js'
import { type Redirect, type RedirectOutcome, redirectFor } from '../core/callbacks/redirect.js'
import { type PayerAction, sendPayerAction } from '../core/control/payer-door.js'
import type { HostedGateway } from './sandbox-host.js'

/**
 * The payer's side, as the kit plays it: in-process on a kit-hosted gateway (the engine's payer
 * operations), or over HTTP on an external paysandbox (Hosted Payment Fields endpoints and the
 * control API). Every action answers like an endpoint: `{status, body}` with the gateway's error
 * envelope when it refuses.
 */

export interface PayerAnswer {
  status: number
  body: Record<string, unknown>
  /** The request made, for a reproduction command (HTTP payers only). */
  request?: { method: string; url: string; headers: Record<string, string>; body: string }
}

/** Thrown for an action this payer cannot take: the step is reported skipped, never passed. */
export class PayerUnavailable extends Error {}

export interface PayerControl {
  readonly kind: 'in-process' | 'http'
  payCard(token: string, body: Record<string, unknown>, operation: 'purchase' | 'debit'): Promise<PayerAnswer>
  threeDs(paymentId: string, result: 'pass' | 'fail'): Promise<PayerAnswer>
  redirect(paymentId: string): Promise<PayerAnswer>
  apm(paymentId: string, action: ApmOutcome): Promise<PayerAnswer>
  /** The newest session's token the gateway knows of (kit-hosted only). */
  latestSession(): string | undefined
  /** The newest payment, in the given status if one is named (kit-hosted only). */
  latestPayment(status?: string): { id: string; status: string } | undefined
  /** Where the payer is sent back (kit-hosted only). */
  redirectFor(paymentId: string, outcome: RedirectOutcome): Redirect | undefined
}

/**
 * The kit's payer on a kit-hosted gateway: every action is a request to `gateway.handle` (the
 * in-process payer routes, control/payer-door.ts), so it runs in the gateway's unit of work like a
 * request off the network, and answers as the Hosted Payment Fields endpoint does.
 */
export function inProcessPayer(hosted: HostedGateway): PayerControl {
  const { ctx } = hosted.gateway
  const act = async (action: PayerAction): Promise<PayerAnswer> => {
    hosted.payerActions.push({ after: hosted.arrived, at: hosted.clock.now(), action })
    const answer = await sendPayerAction(hosted.gateway, action)
    // The payer's action is done when the callbacks it caused have been delivered.
    await hosted.idle()
    return answer
  }
  const newest = <T extends { created_at: number }>(items: T[]) =>
    [...items].sort((a, b) => a.created_at - b.created_at).at(-1)
  return {
    kind: 'in-process',
    payCard: (token, body, operation) => act({ kind: 'card', token, body, operation }),
    threeDs: (paymentId, result) => act({ kind: '3ds', paymentId, result }),
    redirect: (paymentId) => act({ kind: 'redirect', paymentId }),
    apm: (paymentId, outcome) => act({ kind: 'apm', paymentId, outcome }),
    latestSession: () => newest(ctx.store.list('sessions'))?.page_token,
    latestPayment(status) {
      const found = newest(ctx.store.list('payments').filter((p) => !status || p.status === status))
      return found ? { id: found.id, status: found.status } : undefined
    },
    redirectFor(id, outcome) {
      const payment = ctx.store.get('payments', id)
      return payment ? redirectFor(ctx, payment, outcome) : undefined
    },
  }
}

/**
 * An external paysandbox: the payer uses the Hosted Payment Fields endpoints, the hosted ACS and
 * redirect pages (form posts, as a browser sends them) and the control API, which also tells the
 * payment's status after a page.
 */
export function httpPayer(baseUrl: string, controlToken?: string): PayerControl {
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const url = `${baseUrl}${path}`
    const text = body === undefined ? '' : JSON.stringify(body)
    const allHeaders = {
      ...(text ? { 'content-type': 'application/json' } : {}),
      ...(controlToken && path.startsWith('/sandbox/') ? { 'x-sandbox-control-token': controlToken } : {}),
      ...headers,
    }
    const response = await fetch(url, { method, headers: allHeaders, ...(text ? { body: text } : {}) })
    const raw = await response.text()
    let parsed: Record<string, unknown>
    try {
      parsed = JSON.parse(raw) as Record<string, unknown>
    } catch {
      parsed = { text: raw.slice(0, 300) }
    }
    return {
      status: response.status,
      body: parsed,
      request: { method, url, headers: allHeaders, body: text },
    }
  }
  /** A payer's page form, then the payment as the control API shows it. */
  const page = async (
    path: string,
    form: Record<string, string>,
    paymentId: string,
  ): Promise<PayerAnswer> => {
    const url = `${baseUrl}${path}`
    const body = new URLSearchParams(form).toString()
    const headers = { 'content-type': 'application/x-www-form-urlencoded' }
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual' })
    await response.arrayBuffer()
    if (response.status === 404)
      throw new PayerUnavailable(`needs payer control: ${path} is not served by this gateway`)
    const after = await call('GET', `/sandbox/payments/${encodeURIComponent(paymentId)}`, undefined)
    const payment = (after.body.payment ?? {}) as Record<string, unknown>
    return {
      status: after.status,
      body:
        after.status === 200
          ? {
              payment_id: paymentId,
              status: payment.status,
              ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
            }
          : after.body,
      request: { method: 'POST', url, headers, body },
    }
  }
  return {
    kind: 'http',
    // A Hosted Payment Fields session is paid on its endpoint with the session token; a hosted-page
    // session's page token authorizes no API call (docs/rules.md#sessions), so its payer pays as on the page.
    payCard: async (token, body, operation) => {
      const api = await call('POST', `/api/v1/processing/${operation}/card`, body, { Token: token })
      if (api.status !== 401) return api
      const page = await call('POST', `/sandbox/sessions/${encodeURIComponent(token)}/card`, body)
      return page.status === 404 ? api : page
    },
    threeDs: (id, result) => page(`/acs/${encodeURIComponent(id)}`, { result }, id),
    redirect: (id) => page(`/redirect-sim/${encodeURIComponent(id)}`, {}, id),
    apm: (id, action) => call('POST', `/sandbox/payments/${encodeURIComponent(id)}/apm`, { outcome: action }),
    latestSession: () => undefined,
    latestPayment: () => undefined,
    redirectFor: () => undefined,
  }
}
