import { checkoutSignatures, sameSignature } from '../../core/signatures/index.js'
import type {
  ScenarioExpectCallbackAcknowledgedStep,
  ScenarioExpectCallbackStep,
  ScenarioExpectNoCallbackStep,
  ScenarioExpectRedirectStep,
} from '../../generated/types.js'
import { callbackHash, type S2sCardPayment } from '../../library/signatures.js'
import { type CallbackRecord, describeAttempts } from '../callback-channel.js'
import { fail, type ScenarioContext, StepFailed, StepSkipped, settle } from '../context.js'
import type { RecordedRequest } from '../curl.js'
import { exists, interpolate } from '../interpolate.js'
import { checkFields, schemaProblems } from '../match.js'
import { payerWaitMs } from '../merchant.js'
import { changes, describeDelivery } from '../observations.js'
import { problems } from './assert.js'
import { describeCallback, selectCallback } from './select.js'

const asRequest = (r: CallbackRecord): RecordedRequest => ({
  method: 'POST',
  url: r.url,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: r.text,
})

async function waitForCallback(ctx: ScenarioContext, find: () => CallbackRecord | undefined, ms: number) {
  await settle(ctx)
  if (ctx.hosted) return find()
  // An external gateway sends when it sends: wait, a little at a time.
  const deadline = Date.now() + ms
  for (;;) {
    const found = find()
    if (found || Date.now() >= deadline) return found
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** expect.callback: the gateway's next callback with these fields is schema-valid and signed. */
export async function expectCallback(
  step: ScenarioExpectCallbackStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const fields = interpolate(step.fields ?? {}, ctx.vars)
  const open = () => ctx.channel.log.filter((r) => r.source === 'gateway' && !r.consumed)
  const found = await waitForCallback(
    ctx,
    () => open().find((r) => checkFields(r.body, fields).length === 0),
    (step.within_seconds ?? 5) * 1000,
  )
  if (!found) {
    const candidates = open()
    const closest = candidates.at(-1)
    fail(
      `no callback with ${JSON.stringify(fields)} arrived; callbacks not yet matched: ${candidates.map(describeCallback).join(', ') || 'none'}` +
        (closest ? `\n  the latest differs: ${checkFields(closest.body, fields).join('; ')}` : ''),
    )
  }
  const record = found as CallbackRecord
  record.consumed = true
  ctx.request = asRequest(record)
  const api = step.api
  const schema = `callbacks/${api}-callback`
  const found2 = schemaProblems(schema, record.body, 'bracket').map((p) => `does not match ${schema}: ${p}`)
  if ((step.signature ?? 'valid') === 'valid') found2.push(...signatureProblems(ctx, record, api))
  for (const path of step.absent ?? []) if (exists(record.body, path)) found2.push(`${path} should be absent`)
  problems(`callback ${describeCallback(record)}`, found2)
  return record.body
}

function signatureProblems(
  ctx: ScenarioContext,
  record: CallbackRecord,
  api: ScenarioExpectCallbackStep['api'],
): string[] {
  const got = JSON.stringify(record.fields.hash ?? null)
  if (api !== 's2s-card') {
    const expected = callbackHash(record.fields, ctx.credentials.password, api)
    if (sameSignature(expected, record.fields.hash)) return []
    return [`hash is not valid: expected ${expected} (docs/rules.md#signatures), got ${got}`]
  }
  const known = cardPaymentOf(ctx, String(record.fields.trans_id ?? ''))
  // A payment the gateway made itself (a schedule's) is signed over its chain's payer: one the kit knows.
  const candidates = known ? [known] : ctx.memory.all()
  if (candidates.length === 0)
    return [`cannot check the hash: the kit has not seen payment ${record.fields.trans_id}`]
  const hashes = candidates.map((payment) =>
    callbackHash(record.fields, ctx.credentials.password, api, payment),
  )
  if (hashes.some((h) => sameSignature(h, record.fields.hash))) return []
  return [`hash is not valid: expected ${hashes.join(' or ')} (docs/rules.md#signatures), got ${got}`]
}

/** The e-mail and card an S2S CARD callback is signed over: the kit's memory, else the kit-hosted store. */
function cardPaymentOf(ctx: ScenarioContext, transId: string): S2sCardPayment | undefined {
  const known = ctx.memory.forTrans(transId)
  if (known) return known
  const payment = ctx.hosted?.gateway.ctx.store.get('payments', transId)
  if (!payment) return undefined
  return {
    payerEmail: payment.payer?.payer_email ?? '',
    card: payment.card
      ? { cardNumber: payment.card.bin + payment.card.last4 }
      : { cardToken: payment.card_token ?? '' },
  }
}

/** expect.no_callback: nothing beyond the callbacks already matched (with these fields). */
export async function expectNoCallback(
  step: ScenarioExpectNoCallbackStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  await settle(ctx)
  const fields = interpolate(step.fields ?? {}, ctx.vars)
  const extra = ctx.channel.log.filter(
    (r) => r.source === 'gateway' && !r.consumed && checkFields(r.body, fields).length === 0,
  )
  if (extra.length)
    fail(
      `expected no callback${step.fields ? ` with ${JSON.stringify(fields)}` : ''}, got ${extra.map(describeCallback).join(', ')}`,
    )
  return {}
}

/** expect.callback_acknowledged: what the receiver answered (Checkout any 2xx, S2S `OK`). */
export async function expectAcknowledged(
  step: ScenarioExpectCallbackAcknowledgedStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  await settle(ctx)
  if (!ctx.hosted) await waitForAck(ctx, step)
  let record: CallbackRecord
  try {
    record = selectCallback(
      ctx.channel.log.filter((r) => r.attempts.length > 0 || r.held),
      step.callback,
      ['gateway', 'duplicate', 'forged'],
    )
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error
    const log = ctx.channel.log
    return fail(
      `no delivered callback matches ${JSON.stringify(step.callback ?? {})}; callbacks so far: ${log.length ? `\n  - ${log.map((r) => describeDelivery(r, ctx.orderAmounts)).join('\n  - ')}` : 'none (the gateway has made none for this scenario yet)'}`,
    )
  }
  ctx.request = asRequest(record)
  if (record.held)
    fail(`${describeCallback(record)} is still held: deliver it with callbacks.send or callbacks.reorder`)
  const answers = describeAttempts(record.attempts)
  const first = record.attempts.findIndex((a) => a.acknowledged)
  const rule = record.api === 'checkout' ? 'any 2xx' : 'the body OK'
  const timeouts = record.attempts.filter((a) => a.timedOut).length
  const timeoutNote = timeouts
    ? ` ${timeouts === record.attempts.length ? (timeouts === 1 ? 'The attempt was' : `All ${timeouts} attempts were`) : `${timeouts} of ${record.attempts.length} attempts were`} not answered within ${Math.round(ctx.channel.timeoutMs / 1000)} s: a time-out is a failed attempt (docs/rules.md#callbacks), whatever the merchant answers afterwards.`
    : ''
  if (step.acknowledged === false) {
    record.expectedRefusal = true
    if (first < 0) return record.attempts
    // The interface asks that a forged callback change nothing; it does not ask for a refusal.
    const effect = record.effect
    const changed = effect ? changes(effect.before, effect.after) : undefined
    if (record.source !== 'gateway' && effect && changed === '') return record.attempts
    fail(
      effect
        ? `the merchant acknowledged ${describeCallback(record)}${record.forgery ? ` (${record.forgery})` : ''} (${answers}) and its order changed: ${changed}`
        : `the merchant acknowledged ${describeCallback(record)} (${answers}); without an inspect hook the kit cannot tell whether it dropped it, so it must refuse it (docs/rules.md#acknowledgement: acknowledgement is ${rule})`,
      'Authentication',
    )
  }
  if (first < 0)
    fail(
      `the merchant did not acknowledge ${describeCallback(record)}: ${answers || 'no attempt yet'} (docs/rules.md#acknowledgement: acknowledgement is ${rule}).${timeoutNote}`,
      'Events',
    )
  if (step.attempts !== undefined && first + 1 > step.attempts)
    fail(
      `${describeCallback(record)} was acknowledged at attempt ${first + 1}, expected by attempt ${step.attempts}: ${answers}.${timeoutNote}`,
    )
  return record.attempts
}

/** An external gateway retries when it retries: give it the scenario's wait before judging. */
async function waitForAck(ctx: ScenarioContext, step: ScenarioExpectCallbackAcknowledgedStep) {
  if (step.acknowledged === false) return
  const deadline = Date.now() + ctx.waitMs
  const acked = () => {
    const delivered = ctx.channel.log.filter((r) => r.attempts.length > 0)
    const chosen = delivered.length
      ? selectCallback(delivered, step.callback, ['gateway', 'duplicate', 'forged'])
      : undefined
    return chosen?.attempts.some((a) => a.acknowledged) ?? false
  }
  while (Date.now() < deadline) {
    try {
      if (acked()) return
    } catch {
      // Nothing selected yet: keep waiting.
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** expect.redirect: where the payer is sent back, with a hash that verifies. */
export async function expectRedirect(
  step: ScenarioExpectRedirectStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const payer = ctx.payer
  if (payer?.kind !== 'in-process' || !ctx.hosted)
    throw new StepSkipped('skipped: needs a kit-hosted sandbox to see the redirect')
  const id = step.payment_id
    ? interpolate(step.payment_id, ctx.vars)
    : (payer.latestPayment()?.id ?? fail('there is no payment'))
  const outcome = step.outcome ?? 'success'
  const redirect =
    payer.redirectFor(id, outcome) ?? fail(`the session of payment ${id} has no ${outcome}_url`)
  const payment = ctx.hosted.gateway.ctx.store.get('payments', id)
  const found = schemaProblems('callbacks/redirect-query', redirect.params).map(
    (p) => `does not match callbacks/redirect-query: ${p}`,
  )
  if (payment) {
    const expected = checkoutSignatures.notification(
      redirect.params.payment_id ?? '',
      payment.order,
      ctx.credentials.password,
    )
    if (!sameSignature(expected, redirect.params.hash))
      found.push(
        `hash is not valid: expected ${expected} (docs/rules.md#signatures), got ${redirect.params.hash}`,
      )
  }
  found.push(...checkFields(redirect.params, interpolate(step.fields ?? {}, ctx.vars)))
  problems(`the ${outcome} redirect ${redirect.url}`, found, 'Events')
  if (step.follow && ctx.mode === 'merchant') {
    const url = step.tamper
      ? redirect.url.replace(/hash=([0-9a-f])/, (_, c: string) => `hash=${c === '0' ? '1' : '0'}`)
      : redirect.url
    ctx.request = { method: 'GET', url, headers: {}, body: '' }
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(payerWaitMs(ctx.merchant, 10_000)),
    })
    await response.arrayBuffer()
    if (!step.tamper && response.status >= 400)
      fail(`the merchant answered HTTP ${response.status} to the payer's return at ${url}`)
    await settle(ctx)
  }
  return redirect.params
}
