import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { errorCatalogue } from '../../src/core/engine/errors.js'
import { parseRuleHeader, ruleHeader } from '../../src/core/engine/refusal.js'
import { isRuleId, RULES } from '../../src/core/engine/rules.js'
import { WARNING_RULES } from '../../src/core/engine/warnings.js'
import { TRANSITIONS } from '../../src/core/payments/state-machine.js'
import {
  CALLBACK_FORMULAS,
  CHECKOUT_FORMULAS,
  S2S_APM_FORMULAS,
  S2S_CARD_FORMULAS,
} from '../../src/core/signatures/formulas.js'

/**
 * docs/rules.md#rule-book: one table of rules in code (src/core/engine/rules.ts), held to the rule
 * book's anchors both ways, and every source of a refusal (the catalogue's rows, the field schemas'
 * `x-rule`, the signing formulas) naming a rule of that table.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const book = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8')
const anchors = [...book.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1] as string)

/**
 * The rule book's anchors that are deliberately not rules a refusal or a kit verdict names: the
 * sections, the sources, and the rules of what the sandbox does or answers (not what it refuses).
 */
const NOT_REFUSAL_RULES: Record<string, string> = {
  precedence: 'the rule every choice serves, not a refusal',
  sources: 'the documents the rules cite',
  transport: 'a section heading',
  callbacks: 'a section heading',
  'test-data': 'a section heading',
  sessions: 'a section heading',
  payments: 'a section heading',
  'beyond-the-interface': 'a section heading',
  'warnings-and-releases': 'a section heading',
  'known-answer': 'a worked example of Formula 1',
  sha256: 'a merchant setting of every formula: the formula refused is named',
  responses: 'what the gateway answers, not what it refuses',
  identifiers: 'the form of the ids and dates the gateway gives',
  'rule-book': 'how refusals are named (the Sandbox-Rule header)',
  warnings: 'what is served with a Sandbox-Warning, not refused',
  strict: 'refuses the warned points under the rule each warning names',
  'checkout-callback-fields': 'what a callback carries',
  'extended-data': 'what a callback carries',
  'checkout-payment-method': 'what a callback carries',
  's2s-callback-fields': 'what a callback carries',
  'partial-refunds': 'what a partly refunded payment reports',
  delivery: 'when the gateway sends callbacks',
  retries: 'when the gateway sends callbacks again',
  'url-blocking': 'how the gateway stops sending to a failing URL',
  'callback-log': 'the sandbox keeps and replays callbacks',
  'test-cards': 'outcomes of the test cards (declines are answers, not refusals)',
  'declined-payout': 'a test recipient whose payout declines: an outcome, not a refusal',
  'payer-return': "where the payer comes back after 3DS or a redirect: the sandbox's choice, not a refusal",
  'apm-test-brand': 'outcomes of the S2S APM test brand',
  'simulated-connectors': 'the payer chooses the outcome',
  'soft-decline': 'an outcome of a recurring amount',
  start: 'how the sandbox starts',
  configuration: "the sandbox's configuration",
  's2s-card-actions': 'the actions served beyond the interface',
  retention: 'what the store keeps per merchant and for the demo page, not a refusal',
}

describe('the rule table and the rule book (docs/rules.md#rule-book)', () => {
  it('every rule of the table has its anchor in docs/rules.md', () => {
    expect(Object.keys(RULES).filter((id) => !anchors.includes(id))).toEqual([])
  })

  it('every anchor is a rule of the table, or listed here as deliberately not one', () => {
    expect(anchors.filter((a) => !isRuleId(a) && !(a in NOT_REFUSAL_RULES))).toEqual([])
    expect(Object.keys(NOT_REFUSAL_RULES).filter((a) => isRuleId(a) || !anchors.includes(a))).toEqual([])
  })

  it('every rule has a title, the rule in a sentence and its source', () => {
    for (const [id, rule] of Object.entries(RULES)) {
      expect(rule.title, id).not.toBe('')
      expect(rule.says.length, id).toBeGreaterThan(20)
      expect(rule.source, id).not.toBe('')
    }
  })

  it('every warning names a rule of the table', () => {
    for (const rule of WARNING_RULES) expect(isRuleId(rule), rule).toBe(true)
  })
})

describe('every source of a refusal names a rule of the table', () => {
  it('each row of schemas/catalogue/errors.json, and the field of each row whose message names one', () => {
    for (const row of errorCatalogue().values()) {
      expect(isRuleId(row.rule), `${row.id}: ${row.rule}`).toBe(true)
      const named = /^([A-Za-z0-9_.[\]]+): /.exec(row.error_message)?.[1]
      if (row.placement === 'errors_item' && named) expect(row.field, row.id).toBe(named)
      else expect(row.field, row.id).toBeUndefined()
    }
  })

  it('each `x-rule` of the request schemas', () => {
    const found: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (name.endsWith('.json'))
          for (const m of readFileSync(path, 'utf8').matchAll(/"x-rule": "([^"]*)"/g))
            found.push(m[1] as string)
      }
    }
    walk(join(ROOT, 'schemas'))
    expect(found.length).toBeGreaterThanOrEqual(6)
    expect(found.filter((rule) => !isRuleId(rule))).toEqual([])
  })

  it('each signing formula, with its inputs named (never a value)', () => {
    const formulas = [
      ...Object.values(CHECKOUT_FORMULAS),
      ...Object.values(S2S_CARD_FORMULAS),
      ...Object.values(S2S_APM_FORMULAS),
    ]
    for (const formula of formulas) {
      expect(isRuleId(formula.rule), formula.id).toBe(true)
      const inputs = formula.inputs(
        { payer_email: 'a@b.c', card_number: '4111111111111111' },
        {
          payerEmail: 'a@b.c',
          card: { cardNumber: '4111111111111111' },
        },
      )
      expect(inputs, formula.id).toContain('password')
      for (const input of inputs) expect(input, formula.id).toMatch(/^[a-z_.]+$/)
    }
    for (const formula of Object.values(CALLBACK_FORMULAS))
      expect(isRuleId(formula.rule), formula.id).toBe(true)
  })

  it('the catalogue row of each refusing row of the state table', () => {
    for (const row of TRANSITIONS) {
      if (typeof row.to !== 'object') continue
      const ids = typeof row.to.refuse === 'string' ? [row.to.refuse] : Object.values(row.to.refuse)
      for (const id of ids)
        expect(isRuleId(errorCatalogue().get(id)?.rule ?? ''), `${row.id}: ${id}`).toBe(true)
    }
  })
})

describe('the Sandbox-Rule header', () => {
  it('is the anchor, each field and the formula, and reads back as written', () => {
    const header = ruleHeader({
      rule: 'checkout-signatures',
      fields: ['hash'],
      formula: 'checkout.session',
      inputs: ['order.number', 'password'],
      row: 'CHECKOUT_HASH_INVALID',
    })
    expect(header).toBe('docs/rules.md#checkout-signatures; field=hash; formula=checkout.session')
    expect(parseRuleHeader(header)).toEqual({
      rule: 'checkout-signatures',
      fields: ['hash'],
      formula: 'checkout.session',
    })
    expect(ruleHeader({ rule: 'amounts', fields: ['order.amount', 'amount'] })).toBe(
      'docs/rules.md#amounts; field=order.amount; field=amount',
    )
    expect(parseRuleHeader('something else')).toBeUndefined()
    expect(parseRuleHeader(undefined)).toBeUndefined()
  })
})
