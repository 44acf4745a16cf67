import { currencyExponent, fromMinor, toMinor } from '../core/engine/format.js'
import { ruleLine, ruleSection } from '../core/engine/rules.js'
import { documentedDecimals } from '../core/validation/amounts.js'
import type { ScenarioContext } from './context.js'
import { actionOf, maskCards, requestName } from './refusal-causes.js'
import type { ObservedRequest } from './sandbox-host.js'
import type { Finding } from './types.js'

/**
 * Intent (issue 23, requirement 3; docs/conformance.md, Cause first): what the merchant sent for
 * an order against what the kit asked it for at merchant.start: the amount in its currency, and
 * no flag (recurring_init, req_token, auth) it was not asked for. The merchant's own values are
 * read here, never the gateway's messages.
 */

/** A plain decimal string as an exact integer of hundred-millionths: "12.345" → 1234500000n. */
const SCALE = 8
const exact = (value: unknown): bigint | undefined =>
  typeof value === 'string' && /^\d{1,18}(\.\d{1,8})?$/.test(value) ? toMinor(value, SCALE) : undefined
const decimalsOf = (value: string) => value.split('.')[1]?.length ?? 0

/** a / b as a power of ten (2 for a hundred times, -1 for a tenth), 0 when equal, undefined otherwise. */
function powerOfTen(a: string, b: string): number | undefined {
  const p = exact(a)
  const q = exact(b)
  if (p === undefined || q === undefined) return undefined
  if (p === q) return 0
  const [big, small, sign] = p > q ? [p, q, 1] : [q, p, -1]
  const ratio = small ? (big / small).toString() : ''
  return small && big % small === 0n && /^10+$/.test(ratio) ? sign * (ratio.length - 1) : undefined
}

/** The decimals `sent` has when it is `asked` rounded (or cut) to fewer decimals: 2 for "12.35" of "12.345". */
function roundedTo(sent: string, asked: string): number | undefined {
  const x = exact(asked)
  const y = exact(sent)
  const decimals = decimalsOf(sent)
  if (x === undefined || y === undefined || decimals >= decimalsOf(asked)) return undefined
  const unit = 10n ** BigInt(SCALE - decimals)
  return y === (x / unit) * unit || y === ((x + unit / 2n) / unit) * unit ? decimals : undefined
}

/** "1500" JPY as the platform documents it: "1500.00". */
const documentedForm = (amount: string, currency: string): string =>
  fromMinor(toMinor(amount, documentedDecimals(currency)), documentedDecimals(currency))

const PAYMENT_ACTIONS = new Set(['SALE', 'DEBIT', 'AUTH', 'CREDIT2CARD'])
const FLAGS = ['recurring_init', 'req_token', 'auth'] as const
const truthy = (value: unknown) => value === true || /^(y|yes|true|1)$/i.test(String(value ?? ''))

/** The order a payment request is about, as the merchant sent it: number, amount field and flags. */
function sentOrder(
  r: ObservedRequest,
):
  | { number: string; field: string; amount: unknown; currency: unknown; flags: Record<string, unknown> }
  | undefined {
  const body = r.body
  if (!body) return undefined
  const flags = Object.fromEntries(FLAGS.filter((f) => f in body).map((f) => [f, body[f]]))
  const nested =
    body.order && typeof body.order === 'object' ? (body.order as Record<string, unknown>) : undefined
  if ((r.path === '/api/v1/session' || r.path === '/api/v1/session/token') && nested)
    return {
      number: String(nested.number),
      field: 'order.amount',
      amount: nested.amount,
      currency: nested.currency,
      flags,
    }
  const action = actionOf(r)
  const payment =
    r.path === '/api/v1/payment/card/credit' || (action !== undefined && PAYMENT_ACTIONS.has(action))
  if (payment && body.order_id !== undefined)
    return {
      number: String(body.order_id),
      field: 'order_amount',
      amount: body.order_amount,
      currency: body.order_currency,
      flags,
    }
  return undefined
}

/**
 * Intent (issue 23, requirement 3): what the merchant sent for an order against what the kit asked
 * it for at merchant.start: the amount in its currency, and no flag (recurring_init, req_token,
 * auth) it was not asked for.
 */
export function intentFindings(r: ObservedRequest, ctx: ScenarioContext): Finding[] {
  const sent = sentOrder(r)
  if (!sent) return []
  const found: Finding[] = []
  const request = `${requestName(r)} ${maskCards(r.text).slice(0, 600)}`
  const answer = `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`
  const asked = ctx.asked?.[sent.number]
  const [askedAmount, askedCurrency] = (asked?.amounts.at(-1) ?? '').split(' ')
  const currency = typeof sent.currency === 'string' ? sent.currency : askedCurrency
  const amount = sent.amount
  // A malformed amount ("1234,50", a JSON number) is a matter of form: the gateway's refusal or warning says so.
  if (
    askedAmount &&
    askedCurrency &&
    currency === askedCurrency &&
    exact(amount) !== undefined &&
    typeof amount === 'string'
  ) {
    const power = powerOfTen(amount, askedAmount)
    const anyAsked = asked?.amounts.some(
      (a) => a.endsWith(` ${currency}`) && powerOfTen(amount, a.split(' ')[0] ?? '') === 0,
    )
    if (power !== 0 && !anyAsked) {
      const exponent = currencyExponent(currency)
      const cut = roundedTo(amount, askedAmount)
      const how =
        power === undefined
          ? cut !== undefined && cut < exponent
            ? `the order's amount rounded to ${cut} decimal${cut === 1 ? '' : 's'}; ${currency} has ${exponent} (ISO 4217)`
            : 'another amount than the order'
          : power < 0
            ? `1/${10 ** -power} of it, as if ${currency} had ${exponent - power} decimals; ${currency} has ${exponent || 'none'} (ISO 4217)`
            : `${10 ** power} times it, as if ${currency} had ${exponent - power} decimals; ${currency} has ${exponent} (ISO 4217)`
      const cause = `the merchant sent ${sent.field} ${JSON.stringify(sent.amount)} ${currency} for an order of ${askedAmount} ${currency} (${requestName(r)}): ${how}`
      found.push({
        kind: 'intent',
        cause,
        headline: cause,
        request,
        answer,
        rule: `${sent.field} is the order's amount: ${ruleLine('amounts')}`,
        fix: `format the amount from the currency's exponent, not a fixed number of cents: send ${sent.field} "${documentedForm(askedAmount, currency)}"`,
        section: ruleSection('amounts'),
      })
    }
  }
  for (const flag of asked ? FLAGS : []) {
    if (asked?.flags[flag] || !truthy(sent.flags[flag])) continue
    const json = (r.answer.json ?? {}) as Record<string, unknown>
    const effect =
      flag === 'recurring_init'
        ? typeof json.recurring_token === 'string'
          ? ': the gateway started a recurring chain for it (it answered a recurring_token)'
          : ': it asks the gateway to start a recurring chain the payer did not agree to'
        : flag === 'req_token'
          ? ": it asks the gateway to save the payer's card, which the payer did not agree to"
          : ': it asks for an authorization held for capture, not a charge'
    const cause = `the merchant sent ${flag} ${JSON.stringify(sent.flags[flag])} (${requestName(r)}) for a payment it was not asked to make ${flag === 'auth' ? 'two-stage' : flag === 'req_token' ? 'with a saved card' : 'recurring'}`
    found.push({
      kind: 'intent',
      cause,
      headline: `${cause}${effect}`,
      request,
      answer,
      rule: `${flag} only when the payer asked for it; ${ruleLine('booleans')}`,
      section: '2.1; 2.3; docs/rules.md#booleans',
      fix: `leave ${flag} out (or send ${r.path.startsWith('/api/') ? 'false' : 'N'}) unless the payer asked for it`,
    })
  }
  return found
}
