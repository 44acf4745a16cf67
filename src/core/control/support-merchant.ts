import type { SandboxMerchantRequestRequest } from '../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { Payment } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { originalOf } from '../s2s-card/auth.js'
import { declaredSigning, type SignedApi } from '../signing/declared.js'
import { requirePayment } from './support-payer.js'

export type MerchantAction = SandboxMerchantRequestRequest['action']

/** A request exactly as the payment's merchant would send it; the caller decides whether to send it. */
export interface MerchantRequest {
  api: Payment['api']
  action: MerchantAction
  method: 'POST'
  path: string
  url: string
  content_type: string
  body: string
  curl: string
}

const JSON_TYPE = 'application/json'
const FORM_TYPE = 'application/x-www-form-urlencoded'
const S2S_ACTION: Record<MerchantAction, string> = {
  capture: 'CAPTURE',
  refund: 'CREDITVOID',
  void: 'VOID',
  status: 'GET_TRANS_STATUS',
}

/**
 * Builds a follow-up (capture, refund, void, status lookup) as the merchant would: on the
 * payment's own API, signed with the merchant's password by docs/rules.md#signatures. The console then sends
 * it to the gateway's merchant endpoint, so the action goes through the same validation,
 * authentication and state table as the merchant's own request, and can be copied as curl.
 */
export function merchantRequest(
  ctx: EngineContext,
  payment: Payment,
  action: MerchantAction,
  amount?: string,
): MerchantRequest {
  const merchant = ctx.merchant(payment.merchant_key)
  if (!merchant) throw fail('SANDBOX_MERCHANT_UNKNOWN')
  const withAmount = action === 'capture' || action === 'refund' ? amount : undefined
  const { path, type, fields } =
    payment.api === 'checkout'
      ? checkoutRequest(merchant, payment, action, withAmount)
      : payment.api === 's2s-card'
        ? s2sCardRequest(merchant, payment, action, withAmount)
        : s2sApmRequest(merchant, payment, action, withAmount)
  const body =
    type === JSON_TYPE
      ? JSON.stringify(fields)
      : new URLSearchParams(fields as Record<string, string>).toString()
  const url = `${ctx.baseUrl}${path}`
  return {
    api: payment.api,
    action,
    method: 'POST',
    path,
    url,
    content_type: type,
    body,
    curl: curlOf(url, type, body),
  }
}

type Built = { path: string; type: string; fields: Record<string, string> }

/**
 * The request's `hash` by the formula its route or action declares (core/signing/declared.ts),
 * the one the gateway checks it with, over the payment as the formula's original.
 */
function withHash(
  api: SignedApi,
  where: { path?: string; action?: string },
  fields: Record<string, string>,
  m: SandboxMerchant,
  p: Payment,
): Record<string, string> {
  const signing = declaredSigning(api, where)
  if (!signing) throw new Error(`no declared signature for ${api} ${where.action ?? where.path}`)
  return { ...fields, hash: signing.formula.sign(fields, m, originalOf(p)) }
}

function checkoutRequest(m: SandboxMerchant, p: Payment, action: MerchantAction, amount?: string): Built {
  const path = `/api/v1/payment/${action}`
  const fields = { merchant_key: m.key, payment_id: p.id, ...(amount ? { amount } : {}) }
  return { path, type: JSON_TYPE, fields: withHash('checkout', { path }, fields, m, p) }
}

function s2sCardRequest(m: SandboxMerchant, p: Payment, action: MerchantAction, amount?: string): Built {
  const fields = {
    action: S2S_ACTION[action],
    client_key: m.key,
    trans_id: p.id,
    ...(amount ? { amount } : {}),
  }
  return {
    path: '/post',
    type: FORM_TYPE,
    fields: withHash('s2s-card', { action: fields.action }, fields, m, p),
  }
}

/** S2S APM: CREDITVOID has its own formula; CAPTURE takes no amount (s2s-apm/capture-request). */
function s2sApmRequest(m: SandboxMerchant, p: Payment, action: MerchantAction, amount?: string): Built {
  const sendsAmount = action === 'refund' && amount
  const fields = {
    action: S2S_ACTION[action],
    client_key: m.key,
    trans_id: p.id,
    ...(sendsAmount ? { amount } : {}),
  }
  return {
    path: '/post-va',
    type: FORM_TYPE,
    fields: withHash('s2s-apm', { action: fields.action }, fields, m, p),
  }
}

/** A shell-safe curl command: every value single-quoted, embedded quotes closed and escaped. */
export function curlOf(url: string, contentType: string, body: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  return `curl -s -X POST ${q(url)} -H ${q(`content-type: ${contentType}`)} --data-raw ${q(body)}`
}

export function merchantRequestRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute<SandboxMerchantRequestRequest, Payment>({
      method: 'POST',
      path: '/sandbox/payments/:id/merchant-request',
      summary:
        "Prepare a capture, refund, void or status request as the payment's merchant would send it (signed; not sent): method, URL, body and curl",
      pipeline: {
        schema: 'sandbox/merchant-request-request',
        load: (c, params) => requirePayment(c, params.id),
      },
      response: 'control/merchant-request-response',
      handler: ({ input: request, loaded: payment }) =>
        jsonResponse(200, merchantRequest(ctx, payment, request.action, request.amount)),
    }),
  ]
}
