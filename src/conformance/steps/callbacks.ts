import { checkoutSignatures, md5 } from '../../core/signatures/index.js'
import type {
  ScenarioCallbacksDuplicateStep,
  ScenarioCallbacksFailStep,
  ScenarioCallbacksForgeStep,
  ScenarioCallbacksReorderStep,
  ScenarioCallbacksSendStep,
} from '../../generated/types.js'
import { callbackHash } from '../../library/signatures.js'
import type { CallbackRecord } from '../callback-channel.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { interpolate } from '../interpolate.js'
import { inspectOrder } from '../observations.js'
import { describeCallback, selectCallback } from './select.js'

const heldList = (ctx: ScenarioContext) => ctx.channel.held()

function requireHeld(ctx: ScenarioContext, kind: string): CallbackRecord[] {
  if (!ctx.hosted)
    throw new StepSkipped(`skipped: ${kind} needs a kit-hosted sandbox (callbacks are held by its transport)`)
  const held = heldList(ctx)
  if (held.length === 0)
    fail(
      ctx.channel.mode === 'manual'
        ? `${kind}: no callback is held (the gateway has made none since the last delivery)`
        : `${kind}: callbacks are delivered as they come; set "callbacks": "manual" on the scenario to hold them`,
    )
  return held
}

const report = (records: CallbackRecord[]) =>
  records.map((r) => ({ index: r.index, fields: r.fields, attempts: r.attempts }))

/** callbacks.send: the held callbacks reach the receiver, in the gateway's order. */
export async function callbacksSend(step: ScenarioCallbacksSendStep, ctx: ScenarioContext): Promise<unknown> {
  requireHeld(ctx, 'callbacks.send')
  const sent = await ctx.channel.sendHeld(step.which === 'next' ? 'next' : 'all')
  await settle(ctx)
  return report(sent)
}

/** callbacks.reorder: the held callbacks reach the receiver in the scenario's order. */
export async function callbacksReorder(
  step: ScenarioCallbacksReorderStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const held = requireHeld(ctx, 'callbacks.reorder')
  const outside = step.order.filter((i) => i >= held.length)
  if (outside.length)
    fail(
      `callbacks.reorder names ${outside.join(', ')}, but only ${held.length} are held: ${held.map(describeCallback).join(', ')}`,
    )
  const sent = await ctx.channel.sendHeld(step.order)
  await settle(ctx)
  return report(sent)
}

/** callbacks.duplicate: a delivered callback again, exactly as it was. */
export async function callbacksDuplicate(
  step: ScenarioCallbacksDuplicateStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const original = selectCallback(ctx.channel.log, step.callback)
  if (original.attempts.length === 0)
    fail(`${describeCallback(original)} has not been delivered yet: send it first`)
  const sent: CallbackRecord[] = []
  for (let i = 0; i < (step.times ?? 1); i++) {
    const before = await inspectOrder(ctx)
    const record = await ctx.channel.sendOwn(original, original.fields, 'duplicate')
    await settle(ctx)
    if (before) record.effect = { before, after: await inspectOrder(ctx) }
    sent.push(record)
  }
  return report(sent)
}

/** callbacks.forge: a callback the gateway never sent, made from a real one. */
export async function callbacksForge(
  step: ScenarioCallbacksForgeStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  const original = selectCallback(ctx.channel.log, step.callback)
  const fields = tamper(original, step.tamper, ctx.credentials.password)
  const changed = interpolate(step.fields ?? {}, ctx.vars) as Record<string, unknown>
  for (const [key, value] of Object.entries(changed))
    fields[key] = typeof value === 'string' ? value : JSON.stringify(value)
  // Signed again with the merchant's own password: the hash verifies, only the order tells it apart.
  // (An S2S CARD hash covers no amount or currency: the original one still verifies.)
  if (step.tamper === 'resigned' && original.api === 'checkout')
    fields.hash = callbackHash(fields, ctx.credentials.password, 'checkout')
  const before = await inspectOrder(ctx)
  const sent = await ctx.channel.sendOwn(original, fields, 'forged')
  sent.forgery = forgeryNote(step.tamper, changed)
  await settle(ctx)
  if (before) sent.effect = { before, after: await inspectOrder(ctx) }
  return report([sent])[0]
}

/** callbacks.fail: the next attempts fail before the receiver sees them, so the gateway retries. */
export async function callbacksFail(step: ScenarioCallbacksFailStep, ctx: ScenarioContext): Promise<unknown> {
  ctx.channel.failNext += step.times ?? 1
  return { fail_next: ctx.channel.failNext }
}

const TAMPERED: Record<ScenarioCallbacksForgeStep['tamper'], string> = {
  hash: 'signed with another password',
  amount: 'amount changed after signing',
  status: 'status changed after signing',
  order: 'order number changed after signing',
  unsigned: 'no hash',
  resigned: "signed with the merchant's own password",
}

const forgeryNote = (how: ScenarioCallbacksForgeStep['tamper'], changed: Record<string, unknown>) => {
  const set = Object.entries(changed).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
  return `${TAMPERED[how]}${set.length ? `, ${set.join(' ')}` : ''}`
}

const doubled = (amount: string | undefined) => {
  const n = Number(amount ?? '0')
  return Number.isFinite(n) ? (n * 2 + 1).toFixed((amount ?? '').split('.')[1]?.length ?? 2) : '999.99'
}

/** What each kind of forgery changes; the hash stays the one of the original unless it is the target. */
function tamper(
  original: CallbackRecord,
  how: ScenarioCallbacksForgeStep['tamper'],
  password: string,
): Record<string, string> {
  const f = { ...original.fields }
  const checkout = original.api === 'checkout'
  switch (how) {
    case 'hash':
      // A well-formed signature made with another password: only verification tells them apart.
      f.hash = checkout
        ? checkoutSignatures.notification(
            f.id ?? '',
            {
              number: f.order_number,
              amount: f.order_amount,
              currency: f.order_currency,
              description: f.order_description,
            },
            `${password}-forged`,
          )
        : md5(`${f.hash ?? ''}-forged`)
      break
    case 'amount':
      if (checkout) f.order_amount = doubled(f.order_amount)
      else f.amount = doubled(f.amount)
      break
    case 'status':
      if (checkout) {
        const settled = f.order_status === 'settled'
        f.order_status = settled ? 'refund' : 'settled'
        f.status = 'success'
        f.type = settled ? 'refund' : (f.type ?? 'sale')
      } else {
        const settled = f.status === 'SETTLED'
        f.status = settled ? 'REFUND' : 'SETTLED'
        f.result = 'SUCCESS'
      }
      break
    case 'order':
      if (checkout) f.order_number = `${f.order_number ?? ''}-forged`
      else f.order_id = `${f.order_id ?? ''}-forged`
      break
    case 'unsigned':
      delete f.hash
      break
    case 'resigned':
      break
  }
  return f
}
