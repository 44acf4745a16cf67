import type { ApmOutcome } from '../../core/apm/types.js'
import type {
  ScenarioExpectation,
  ScenarioPayer3DsStep,
  ScenarioPayerApmStep,
  ScenarioPayerCardStep,
  ScenarioPayerRedirectStep,
} from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped } from '../context.js'
import { interpolate } from '../interpolate.js'
import { checkAnswer } from '../match.js'
import { type PayerAnswer, type PayerControl, PayerUnavailable } from '../payer-control.js'
import { payerComesBack } from '../payer-return.js'
import { problems } from './assert.js'
import { cardFor, hpfBody } from './cards.js'
import { followMerchant } from './follow.js'

const HPF_RESPONSE = 'checkout/hpf-card-payment-response'

function payerOf(ctx: ScenarioContext): PayerControl {
  if (!ctx.payer)
    throw new StepSkipped(
      'skipped: needs payer control (the gateway is not a paysandbox, so the kit cannot act as its payer)',
    )
  return ctx.payer
}

/** Runs a payer action; an action this gateway offers no way to take skips the scenario. */
async function act(ctx: ScenarioContext, run: () => Promise<PayerAnswer>): Promise<PayerAnswer> {
  try {
    const answer = await run()
    if (answer.request) ctx.request = answer.request
    return answer
  } catch (error) {
    if (error instanceof PayerUnavailable) throw new StepSkipped(`skipped: ${error.message}`)
    throw error
  }
}

function judge(what: string, answer: PayerAnswer, expect: ScenarioExpectation | undefined, schema?: string) {
  problems(what, checkAnswer(answer, expect, schema))
  return answer.body
}

/** payer.card: the payer pays the scenario's latest Checkout session by card. */
export async function payerCard(step: ScenarioPayerCardStep, ctx: ScenarioContext): Promise<unknown> {
  const payer = payerOf(ctx)
  if (ctx.lastApi && ctx.lastApi !== 'checkout')
    fail('payer.card pays a Checkout session; an S2S card is given in merchant.start (card or outcome)')
  const session = step.token
    ? { token: interpolate(step.token, ctx.vars), operation: 'purchase' }
    : ctx.sessions.at(-1)
  const token =
    session?.token ?? payer.latestSession() ?? fail('there is no Checkout session to pay: start one first')
  const operation = ctx.sessions.find((s) => s.token === token)?.operation === 'debit' ? 'debit' : 'purchase'
  const card = cardFor(step.outcome, step.card ? interpolate(step.card, ctx.vars) : undefined)
  const answer = await act(ctx, () => payer.payCard(token, card ? hpfBody(card) : {}, operation))
  const body = judge('the payment', answer, interpolate(step.expect, ctx.vars), HPF_RESPONSE)
  if (typeof body.payment_id === 'string') ctx.vars.payment_id = body.payment_id
  return body
}

function waitingPayment(
  ctx: ScenarioContext,
  payer: PayerControl,
  given: string | undefined,
  status: string,
): string {
  if (given) return interpolate(given, ctx.vars)
  const found = payer.latestPayment(status)?.id
  if (found) return found
  // Over HTTP the kit knows the payments it was told of: the card payment's id, or the S2S trans_id.
  const told = ctx.lastApi === 'checkout' ? ctx.vars.payment_id : (ctx.vars.trans_id ?? ctx.vars.payment_id)
  if (payer.kind === 'http' && typeof told === 'string') return told
  return fail(`no payment is waiting in status ${status}`)
}

/**
 * payer.3ds: the payer passes or fails the challenge, then comes back to the merchant's page
 * (S2S CARD `term_url_3ds`, Hosted Payment Fields `return_url`), as a browser is sent there.
 */
export async function payer3ds(step: ScenarioPayer3DsStep, ctx: ScenarioContext): Promise<unknown> {
  const payer = payerOf(ctx)
  await followMerchant(ctx)
  const id = waitingPayment(ctx, payer, step.payment_id, '3ds')
  const body = judge(
    'the 3DS result',
    await act(ctx, () => payer.threeDs(id, step.result)),
    interpolate(step.expect, ctx.vars),
  )
  await payerComesBack(ctx, id)
  return body
}

/** payer.redirect: the payer comes back from the redirect page, to the merchant's page as after 3DS. */
export async function payerRedirect(step: ScenarioPayerRedirectStep, ctx: ScenarioContext): Promise<unknown> {
  const payer = payerOf(ctx)
  await followMerchant(ctx)
  const id = waitingPayment(ctx, payer, step.payment_id, 'redirect')
  const body = judge(
    'the return from the redirect',
    await act(ctx, () => payer.redirect(id)),
    interpolate(step.expect, ctx.vars),
  )
  await payerComesBack(ctx, id)
  return body
}

/** payer.apm: the payer acts on the method's simulator page. */
export async function payerApm(step: ScenarioPayerApmStep, ctx: ScenarioContext): Promise<unknown> {
  const payer = payerOf(ctx)
  const given = step.payment_id ? interpolate(step.payment_id, ctx.vars) : undefined
  const id =
    given ??
    payer.latestPayment()?.id ??
    (typeof ctx.vars.payment_id === 'string' ? ctx.vars.payment_id : undefined) ??
    (typeof ctx.vars.trans_id === 'string' ? ctx.vars.trans_id : undefined) ??
    fail('there is no payment to act on: start one first')
  return judge(
    `the ${step.method} page`,
    await act(ctx, () => payer.apm(id, step.action as ApmOutcome)),
    interpolate(step.expect, ctx.vars),
  )
}

/** payer.abandon: the payer leaves; nothing happens until the clock passes the session's expiry. */
export async function payerAbandon(): Promise<unknown> {
  return {}
}
