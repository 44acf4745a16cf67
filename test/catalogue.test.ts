/**
 * The method catalogue (schemas/catalogue/methods.json) against the interface itself: the test reads
 * section 2.2 of the interface (verbatim in data/interface/2.2-payment-methods.md, docs/interface-data.md),
 * extracts every method identifier it names
 * (tables, behaviour-group bullets, headings, the neutral-name sentence) and proves each has an entry.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatFieldError, schemaRegistry, validate } from '../src/core/validation/index.js'
import { SCHEMAS_DIR } from '../src/schema-files.js'
import { interfaceExcerpt } from './helpers/interface-excerpts.js'

const CATALOGUE = join(SCHEMAS_DIR, 'catalogue', 'methods.json')
const METHODS_DIR = join(SCHEMAS_DIR, 'methods')

interface Entry {
  id: string
  title: string
  group: string
  operations: string[]
  parameters_schema: string | null
  settings_schema?: string
  collects_on_page: string[]
  aliases?: string[]
  family?: string
  named_by_description?: boolean
  described_as?: string
  id_pattern?: string
  group_inferred?: boolean
  response_fields?: string[]
  provider_headers?: string[]
  requires?: string[]
  session_values?: Record<string, unknown>
}
interface Catalogue {
  groups: Record<string, { label: string }>
  methods: Entry[]
}

/** Section 2.2 of the interface, verbatim (data/interface/2.2-payment-methods.md). */
function loadSpec(): string {
  return interfaceExcerpt('2.2-payment-methods')
}
const catalogue = (): Catalogue => JSON.parse(readFileSync(CATALOGUE, 'utf8')) as Catalogue

/** Section 2.2 of the interface, from its heading to the 2.3 heading. */
function section22(spec: string): string {
  const start = spec.indexOf('### 2.2 ')
  if (start < 0) throw new Error('section 2.2 not found (### 2.2 ...)')
  return spec.slice(start)
}

/** Splits at `sep` characters that are not inside parentheses. */
function splitTop(text: string, seps: string): string[] {
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of text) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (depth === 0 && seps.includes(ch)) {
      out.push(cur)
      cur = ''
    } else cur += ch
  }
  out.push(cur)
  return out.map((s) => s.trim()).filter(Boolean)
}

/** One thing the interface names: an identifier, a wildcard, a family template, or a descriptive phrase. */
interface Named {
  kind: 'id' | 'wildcard' | 'phrase' | 'template'
  value: string
  /** The behaviour-group label of the bullet it came from. */
  label?: string
  /** Listed among "the payout variants". */
  payout?: boolean
}

const backticks = (s: string): string[] => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)
const isTemplate = (s: string) => /<[^>]+>/.test(s)
const templatePrefix = (s: string) => s.slice(0, s.indexOf('<'))

/** `ptw-<code>` + "including PW_0007 to PW_0060, opp, ..., pp_* and others" -> ptw-PW_0007 ... ptw-pp_*. */
function expandList(prefix: string, list: string, label?: string): Named[] {
  const out: Named[] = []
  let payout = false
  for (const piece of splitTop(list, ',;')) {
    for (let part of piece.replace(/^including\s+/, '').split(/\s+and\s+/)) {
      if (/payout variants/.test(part)) payout = true
      part = part.trim()
      const range = /^([A-Za-z_]*?)(\d+) to ([A-Za-z_]*?)(\d+)$/.exec(part)
      if (range) {
        const [, p1, from, , to] = range as unknown as [string, string, string, string, string]
        for (let n = Number(from); n <= Number(to); n++) {
          out.push({
            kind: 'id',
            value: `${prefix}${p1}${String(n).padStart(from.length, '0')}`,
            label,
            payout,
          })
        }
        continue
      }
      const word = part.split(/\s+/).pop() ?? ''
      if (!word || word === 'others') continue
      out.push({ kind: word.endsWith('*') ? 'wildcard' : 'id', value: `${prefix}${word}`, label, payout })
    }
  }
  return out
}

/** One list item: "rapid-transfer (...)", "moov-money and mtn-mobile-money (...)", "`pr-<x>` (cash, ...)", "cybersource-type card". */
function parseItem(raw: string, label?: string): Named[] {
  const item = raw.trim().replace(/\.$/, '')
  const open = item.indexOf('(')
  const head = (open < 0 ? item : item.slice(0, open)).trim()
  const paren = open < 0 ? '' : item.slice(open + 1, item.lastIndexOf(')'))
  const ticked = backticks(head)
  if (ticked.length) {
    return ticked.flatMap((t) =>
      isTemplate(t)
        ? paren
          ? expandList(templatePrefix(t), paren, label)
          : [{ kind: 'template' as const, value: t, label }]
        : [{ kind: 'id' as const, value: t, label }],
    )
  }
  if (isTemplate(head)) return expandList(templatePrefix(head), paren, label)
  return head
    .split(/\s+and\s+/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): Named => {
      if (/\s/.test(part)) return { kind: 'phrase', value: part, label }
      return { kind: part.endsWith('*') ? 'wildcard' : 'id', value: part, label }
    })
}

/** Resolves the shorthands "xprowirelatam-ted, -cash" and "bitolo-inr/-brl/-zar" against the last full identifier. */
function resolveShorthand(items: Named[]): Named[] {
  const out: Named[] = []
  let base = ''
  for (const n of items) {
    const parts = n.kind === 'id' ? n.value.split('/') : [n.value]
    for (const p of parts) {
      if (n.kind === 'id' && p.startsWith('-')) {
        out.push({ ...n, value: `${base}${p}` })
        continue
      }
      if (n.kind === 'id' && p.includes('-')) base = p.slice(0, p.indexOf('-'))
      out.push({ ...n, value: p })
    }
  }
  return out
}

/** Markdown tables of 2.2 whose first column is "Identifier" or "Method": their first cells. */
function tableIdentifierCells(text: string): string[] {
  const cells: string[] = []
  let inTable = false
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false
      continue
    }
    const first = (line.split('|')[1] ?? '').trim()
    if (!inTable) {
      inTable = first === 'Identifier' || first === 'Method'
      continue
    }
    if (/^-+$/.test(first)) continue
    cells.push(first)
  }
  return cells
}

/** Every method identifier, wildcard, template and descriptive phrase section 2.2 names. */
function namedByInterface(spec: string): Named[] {
  const s22 = section22(spec)
  const named: Named[] = []
  // The headings: `card`, `wallet1` and `wallet2`.
  for (const line of s22.split('\n').filter((l) => l.startsWith('####'))) {
    for (const t of backticks(line)) named.push({ kind: 'id', value: t })
  }
  // "Identifiers whose names contain a provider name are written with a neutral word: `wallet1` ..."
  const neutral = s22.split('\n').find((l) => l.includes('neutral stand-ins')) ?? ''
  expect(neutral, 'the sentence that lists the neutral identifiers').not.toBe('')
  const sentence = neutral.slice(neutral.indexOf('Identifiers whose names'))
  for (const t of backticks(sentence)) named.push({ kind: isTemplate(t) ? 'template' : 'id', value: t })
  // Identifier columns of the 2.2.2 / 2.2.3 tables ("same four" points back to the previous row).
  for (const cell of tableIdentifierCells(s22)) {
    if (/^same\b/.test(cell)) continue
    named.push(...resolveShorthand(splitTop(cell, ',;').flatMap((item) => parseItem(item))))
  }
  // The behaviour-group bullets.
  const groupsAt = s22.indexOf('Behaviour groups')
  expect(groupsAt, 'the "Behaviour groups" list').toBeGreaterThan(0)
  const bullets = s22
    .slice(groupsAt)
    .split('\n')
    .filter((l) => l.startsWith('- '))
  for (const bullet of bullets) {
    for (const segment of bullet.slice(2).split(/(?<=\.)\s+(?=[A-Z][^:]{0,80}:\s)/)) {
      const colon = segment.indexOf(':')
      const label = segment.slice(0, colon).trim()
      const rest = segment.slice(colon + 1).trim()
      if (!/\s/.test(label)) {
        // "crypto-btg: generates and displays a crypto wallet address, no fixed amount."
        named.push({ kind: 'id', value: label })
        continue
      }
      named.push(
        ...resolveShorthand(splitTop(rest.replace(/\.$/, ''), ',').flatMap((item) => parseItem(item, label))),
      )
    }
  }
  return named
}

/** Property names, enum and const values of every schema under schemas/methods (for the backtick accounting). */
function schemaVocabulary(): Set<string> {
  const words = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n)
      return
    }
    if (!node || typeof node !== 'object') return
    const obj = node as Record<string, unknown>
    if (obj.properties && typeof obj.properties === 'object')
      for (const k of Object.keys(obj.properties)) words.add(k)
    if (Array.isArray(obj.enum)) for (const v of obj.enum) words.add(String(v))
    if (obj.const !== undefined) words.add(String(obj.const))
    for (const v of Object.values(obj)) walk(v)
  }
  for (const f of readdirSync(METHODS_DIR)) walk(JSON.parse(readFileSync(join(METHODS_DIR, f), 'utf8')))
  return words
}

describe('method catalogue: data and schema', () => {
  const cat = catalogue()

  it('validates against catalogue/method-catalogue.schema.json', () => {
    const result = validate('catalogue/method-catalogue.schema.json', cat)
    expect(result.errors.map(formatFieldError)).toEqual([])
  })

  it('has unique identifiers, and no alias equal to another identifier', () => {
    const ids = cat.methods.map((m) => m.id)
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i)
    expect(dupes).toEqual([])
    const aliases = cat.methods.flatMap((m) => m.aliases ?? [])
    expect(aliases.filter((a) => ids.includes(a))).toEqual([])
    expect(aliases.filter((a, i) => aliases.indexOf(a) !== i)).toEqual([])
  })

  it('points only at parameter and settings schemas that exist, load in strict mode and follow <identifier>.schema.json', () => {
    const registry = schemaRegistry()
    for (const m of cat.methods) {
      for (const path of [m.parameters_schema, m.settings_schema]) {
        if (!path) continue
        expect(existsSync(join(SCHEMAS_DIR, path)), `${m.id}: ${path} exists`).toBe(true)
        expect(() => registry.validator(path), `${m.id}: ${path} compiles`).not.toThrow()
      }
      if (m.parameters_schema) expect(m.parameters_schema).toBe(`methods/${m.id}.schema.json`)
      if (m.settings_schema) expect(m.settings_schema).toBe(`methods/${m.id}-settings.schema.json`)
    }
  })

  it('references every method schema file from some entry, and every family-common file from some method schema', () => {
    const referenced = new Set(
      cat.methods.flatMap((m) => [m.parameters_schema, m.settings_schema]).filter(Boolean),
    )
    const files = readdirSync(METHODS_DIR).filter((f) => f.endsWith('.schema.json'))
    const own = files.filter((f) => !f.startsWith('_'))
    expect(own.filter((f) => !referenced.has(`methods/${f}`))).toEqual([])
    const texts = files.map((f) => readFileSync(join(METHODS_DIR, f), 'utf8'))
    for (const common of files.filter((f) => f.startsWith('_'))) {
      expect(
        texts.some((t) => t.includes(`"${common}#`)),
        `${common} is $ref'd by a method schema`,
      ).toBe(true)
    }
  })

  it('gives wildcard entries a pattern that matches their own family and nothing else', () => {
    for (const m of cat.methods.filter((e) => e.id.endsWith('*'))) {
      const re = new RegExp(m.id_pattern ?? '^$')
      const prefix = m.id.slice(0, -1)
      expect(re.test(`${prefix}example_1`), m.id).toBe(true)
      expect(re.test(`zz-${prefix}example`), m.id).toBe(false)
    }
  })

  it('applies the operations rule: payout and withdrawal methods serve credit only; payin methods never credit', () => {
    // operations_rule in methods.json; "Checkout operations: `purchase`, `debit`, `credit` (payout)."
    const payout = /(^smlpz-out-|withdrawal$|payout$)/
    for (const m of cat.methods) {
      if (payout.test(m.id)) expect(m.operations, m.id).toEqual(['credit'])
      else if (m.id !== 'card' && !m.id.startsWith('transactX-'))
        expect(m.operations, m.id).not.toContain('credit')
    }
    // "txn-f (fiat converted to crypto; payin only)"
    expect(cat.methods.find((m) => m.id === 'txn-f')?.operations).not.toContain('credit')
  })

  it('maps the alias intc-sdp to interac', () => {
    // "interac (formerly `intc-sdp`)"
    expect(cat.methods.find((m) => m.id === 'interac')?.aliases).toEqual(['intc-sdp'])
  })
})

describe('method catalogue against the interface (section 2.2, data/interface/2.2-payment-methods.md)', () => {
  it('reads section 2.2 whole, from its heading to the end of its last table', () => {
    const s22 = section22(loadSpec())
    expect(s22.startsWith('### 2.2 Payment method identifiers')).toBe(true)
    expect(s22).toContain('Behaviour groups')
    expect(s22).toContain('#### 2.2.2')
  })

  it('has an entry for every method identifier section 2.2 names', () => {
    const cat = catalogue()
    const known = new Set(cat.methods.flatMap((m) => [m.id, ...(m.aliases ?? [])]))
    const named = namedByInterface(loadSpec())
    const ids = [...new Set(named.filter((n) => n.kind === 'id').map((n) => n.value))]
    // Sanity of the extraction itself: the families expand as the interface describes them.
    expect(ids).toContain('ptw-PW_0007')
    expect(ids).toContain('ptw-PW_0060')
    expect(ids.filter((id) => /^ptw-PW_\d{4}$/.test(id))).toHaveLength(54)
    expect(ids).toEqual(
      expect.arrayContaining(['xprowirelatam-bank-slip', 'bitolo-zar', 'paycash-costarica', 'transactX-inr']),
    )
    expect(ids.filter((id) => id.startsWith('paycash-'))).toHaveLength(10)
    expect(ids.length).toBeGreaterThan(250)
    const missing = ids.filter((id) => !known.has(id))
    expect(missing, `identifiers named by the interface with no catalogue entry`).toEqual([])
  })

  it('has no entry the interface does not name', () => {
    // Every entry is an identifier, a wildcard or a described method of 2.2; "ptw-*" stands for
    // "`ptw-<code>` (including ... and others)".
    const named = namedByInterface(loadSpec())
    const values = new Set(named.map((n) => n.value))
    const invented = catalogue().methods.filter((m) => {
      if (values.has(m.id)) return false
      if (m.described_as && values.has(m.described_as)) return false
      return !(m.id === 'ptw-*' && /ptw-<code>` \([^)]*and others\)/.test(loadSpec()))
    })
    expect(invented.map((m) => m.id)).toEqual([])
  })

  it('has an entry for every method the interface names only by a description', () => {
    // "kora-type mobile-money method", "trans-type voucher method", "cybersource-type card", "coinspaid-type crypto"
    const cat = catalogue()
    const phrases = namedByInterface(loadSpec()).filter((n) => n.kind === 'phrase')
    expect(phrases.length).toBeGreaterThanOrEqual(4)
    for (const p of phrases) {
      const entry = cat.methods.find((m) => m.described_as === p.value)
      expect(entry, `an entry described_as "${p.value}"`).toBeDefined()
      expect(entry?.named_by_description).toBe(true)
    }
  })

  it('covers every wildcard and every family template', () => {
    // "`ptw-<code>` (including ..., open_banking_*, pp_* and others)", "inf-* (above)", "all `transactX-<suffix>` identifiers"
    const cat = catalogue()
    const named = namedByInterface(loadSpec())
    for (const w of named.filter((n) => n.kind === 'wildcard')) {
      const prefix = w.value.slice(0, -1)
      const covered =
        cat.methods.some((m) => m.id === w.value) ||
        cat.methods.filter((m) => m.id.startsWith(prefix) && !m.id.endsWith('*')).length > 0
      expect(covered, `${w.value} is covered`).toBe(true)
    }
    for (const t of named.filter((n) => n.kind === 'template')) {
      const prefix = templatePrefix(t.value)
      expect(
        cat.methods.filter((m) => m.id.startsWith(prefix)).length,
        `${t.value} has members`,
      ).toBeGreaterThan(0)
    }
  })

  it('puts every identifier of a behaviour-group bullet in the group of that bullet', () => {
    const cat = catalogue()
    const byLabel = new Map(Object.entries(cat.groups).map(([id, g]) => [g.label, id]))
    const listed = namedByInterface(loadSpec()).filter((n) => n.kind === 'id' && n.label)
    expect(listed.length).toBeGreaterThan(200)
    for (const n of listed) {
      const group = byLabel.get(n.label as string)
      expect(group, `behaviour-group label "${n.label}" is one of the catalogue groups`).toBeDefined()
      const entry = cat.methods.find((m) => m.id === n.value)
      expect(entry?.group, n.value).toBe(group)
      expect(entry?.group_inferred, `${n.value} is listed, so its group is not inferred`).not.toBe(true)
    }
  })

  it('makes the transactX payout variants credit-only', () => {
    // "all `transactX-<suffix>` identifiers (qris, ..., upi and the payout variants idr, myr, vnd, php, thb, bdt, inr)"
    const cat = catalogue()
    const transactX = namedByInterface(loadSpec()).filter(
      (n) => n.kind === 'id' && n.value.startsWith('transactX-'),
    )
    expect(transactX.filter((n) => n.payout).map((n) => n.value)).toEqual(
      ['idr', 'myr', 'vnd', 'php', 'thb', 'bdt', 'inr'].map((s) => `transactX-${s}`),
    )
    for (const n of transactX) {
      const ops = cat.methods.find((m) => m.id === n.value)?.operations
      expect(ops, n.value).toEqual(n.payout ? ['credit'] : ['purchase', 'debit'])
    }
  })

  it('accounts for every backticked word of section 2.2: an identifier, an alias, a family, or a name or value of a method schema', () => {
    const cat = catalogue()
    const ids = new Set(cat.methods.flatMap((m) => [m.id, ...(m.aliases ?? [])]))
    const vocabulary = schemaVocabulary()
    for (const m of cat.methods) {
      for (const w of [...(m.response_fields ?? []), ...(m.provider_headers ?? []), ...(m.requires ?? [])])
        vocabulary.add(w)
      for (const w of Object.keys(m.session_values ?? {})) vocabulary.add(w)
    }
    // Words that are neither identifiers nor parameters, each with the interface text it comes from.
    const notIdentifiers = new Set([
      'methods', // "The identifier goes in `methods`"
      'parameters.<identifier>', // "its data goes in `parameters.<identifier>`"
      'parameters[shipping][x]', // "`shipping` object (bracket form `parameters[shipping][x]`)"
      'parameters[<name>]', // swifipay-withdrawal: "sent as `parameters[<name>]`"
      'STK_PROMPT', // kora-type: "the response carries `auth_method` (value `STK_PROMPT`)"
    ])
    const unaccounted = backticks(section22(loadSpec())).filter((word) => {
      if (ids.has(word) || notIdentifiers.has(word) || vocabulary.has(word)) return false
      // `parameters.card`: the parameters key of a method.
      if (word.startsWith('parameters.') && ids.has(word.slice('parameters.'.length))) return false
      // `inf-*`: a wildcard covered by its family's entries.
      if (word.endsWith('*')) return !cat.methods.some((m) => m.id.startsWith(word.slice(0, -1)))
      if (isTemplate(word)) return !cat.methods.some((m) => m.id.startsWith(templatePrefix(word)))
      // Set 6 object paths such as `cart.items[n]`: every segment is a property of the card schema.
      const segments = word.split('.').map((s) => s.replace(/\[[^\]]*\]$/, ''))
      return !(segments.length > 1 && segments.every((s) => vocabulary.has(s)))
    })
    expect(unaccounted).toEqual([])
  })
})
