/**
 * The method parameter schemas against the 2.2.2 tables of the interface, read at test time from
 * its section 2.2, kept verbatim in data/interface/2.2-payment-methods.md: every (identifier, parameter) row has a property in
 * schemas/methods/<identifier>.schema.json, and the schema requires exactly the parameters the
 * interface calls Required or Mandatory (Conditional and Optional ones are never required).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AnySchemaObject } from 'ajv'
import { describe, expect, it } from 'vitest'
import { schemaRegistry } from '../../src/core/validation/index.js'
import { SCHEMAS_DIR } from '../../src/schema-files.js'
import { interfaceExcerpt } from '../helpers/interface-excerpts.js'

/** Section 2.2 of the interface, verbatim (docs/interface-data.md). */
function spec(): string {
  return interfaceExcerpt('2.2-payment-methods')
}

/** The rows of the markdown table whose header line starts with `header`. */
function table(text: string, header: string): string[][] {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => l.startsWith(header))
  if (start < 0) throw new Error(`table "${header}" not found in the interface`)
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    )
  }
  return rows
}

/** Properties (top level and one level of nesting, as `a.b`) and required names of a method schema, through $ref and allOf. */
function shape(id: string): { props: Set<string>; required: Set<string> } {
  const registry = schemaRegistry()
  const props = new Set<string>()
  const required = new Set<string>()
  const visit = (node: AnySchemaObject, base: string, prefix: string, depth: number): void => {
    if (typeof node.$ref === 'string') {
      const url = new URL(node.$ref, base).href
      const target = registry.ajv.getSchema(url)?.schema as AnySchemaObject | undefined
      if (target) visit(target, url, prefix, depth)
    }
    for (const branch of (node.allOf ?? []) as AnySchemaObject[]) visit(branch, base, prefix, depth)
    for (const [name, sub] of Object.entries((node.properties ?? {}) as Record<string, AnySchemaObject>)) {
      props.add(prefix + name)
      if (depth === 0) visit(sub, base, `${name}.`, 1)
    }
    if (depth === 0) for (const r of (node.required ?? []) as string[]) required.add(r)
  }
  const file = `methods/${id}.schema.json`
  expect(existsSync(join(SCHEMAS_DIR, file)), `${file} exists`).toBe(true)
  const root = registry.schema(file) as AnySchemaObject
  visit(root, root.$id as string, '', 0)
  return { props, required }
}

const splitIds = (cell: string): string[] =>
  cell
    .replace(/\([^)]*\)/g, '')
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean)

/** Top-level comma split that keeps "(DNI or CUIT)" and "(up to 6; values such as CPF, CNPJ)" together. */
function items(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of text) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (ch === ',' && depth === 0) {
      out.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  if (cur.trim()) out.push(cur.trim())
  return out
}

describe('2.2.2 "Methods with extra parameters" table', () => {
  it('every row: the parameter exists, and is required exactly when the row says Required', () => {
    const rows = table(spec(), '| Identifier | Parameter | Type | Requirement / notes |')
    expect(rows.length).toBeGreaterThan(40)
    let previous: string[] = []
    let checked = 0
    for (const [idCell, paramCell, , requirement] of rows as [string, string, string, string][]) {
      // "same four" repeats the identifiers of the row above.
      const ids = /^same\b/.test(idCell) ? previous : splitIds(idCell)
      previous = ids
      const isRequired = /^(Required|Mandatory)\b/.test(requirement)
      for (const id of ids) {
        const { props, required } = shape(id)
        for (const param of paramCell.split(',').map((p) => p.trim())) {
          expect(props.has(param), `${id}.${param} is a property`).toBe(true)
          expect(required.has(param), `${id}.${param} required: "${requirement}"`).toBe(isRequired)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(60)
  })

  it('rows whose parameter is collected on the page are marked x-collected-on-page', () => {
    // "Conditional; collected on the page when absent." / "Optional; requested from the payer when absent."
    const rows = table(spec(), '| Identifier | Parameter | Type | Requirement / notes |')
    const registry = schemaRegistry()
    for (const [idCell, paramCell, , requirement] of rows as [string, string, string, string][]) {
      if (!/collected on the page when absent|requested from the payer when absent/.test(requirement))
        continue
      for (const id of splitIds(idCell)) {
        const raw = JSON.stringify(registry.schema(`methods/${id}.schema.json`))
        const common = JSON.stringify(registry.schema('methods/_pyk-common.schema.json'))
        for (const param of paramCell.split(',').map((p) => p.trim())) {
          const marked = new RegExp(`"${param}":\\{[^}]*"x-collected-on-page":true`)
          expect(marked.test(raw) || (id.includes('upi') && marked.test(common)), `${id}.${param}`).toBe(true)
        }
      }
    }
  })
})

describe('2.2.2 payout-style withdrawal table', () => {
  it('mandatory parameters are required; "optional:" ones are not', () => {
    const rows = table(spec(), '| Identifier | Parameters (all mandatory unless marked) |')
    expect(rows).toHaveLength(7)
    for (const [id, cell] of rows as [string, string][]) {
      const [mandatory, optional = ''] = cell.split(/;\s*optional:\s*/)
      const { props, required } = shape(id)
      const names = (list: string) => items(list).map((i) => (i.split(/[\s(]/)[0] as string).trim())
      for (const name of names(mandatory as string)) {
        expect(props.has(name), `${id}.${name}`).toBe(true)
        expect(required.has(name), `${id}.${name} is mandatory`).toBe(true)
      }
      for (const name of optional ? names(optional) : []) {
        expect(props.has(name), `${id}.${name}`).toBe(true)
        expect(required.has(name), `${id}.${name} is optional`).toBe(false)
      }
      expect(required.size, `${id}: nothing else is required`).toBe(names(mandatory as string).length)
    }
  })
})

describe('2.2.2 inf-* family', () => {
  it('the common parameters are required for every inf-* identifier, with each additional required parameter', () => {
    const text = spec()
    const common = /Common request parameters, all required: (.*?)\. Per identifier:/.exec(text)?.[1]
    expect(common, 'the inf-* common parameter sentence').toBeDefined()
    const commonNames = items(common as string).map((i) => i.split(/[\s(]/)[0] as string)
    expect(commonNames).toHaveLength(10)
    const rows = table(text, '| Identifier | type value | Additional required parameters |')
    expect(rows).toHaveLength(9)
    for (const [id, typeCell, additional] of rows as [string, string, string][]) {
      const { props, required } = shape(id)
      for (const name of commonNames) expect(required.has(name), `${id}.${name}`).toBe(true)
      const extra = additional === 'none' ? [] : items(additional)
      for (const item of extra) {
        const name = item.split(/[\s(]/)[0] as string
        expect(props.has(name), `${id}.${name} is a property`).toBe(true)
        // "bankDetails.cbu, bankDetails.alias (collected at interaction)": the payer gives them later.
        const collectedLater = name.includes('.') || /collected at interaction/.test(additional)
        expect(required.has(name), `${id}.${name} required in the request`).toBe(!collectedLater)
      }
      expect(required.size, `${id}: nothing else is required`).toBe(
        commonNames.length +
          extra.filter((i) => !i.includes('.') && !/collected at interaction/.test(additional)).length,
      )
      // "`PIX`; market is `BR`": the type value is fixed per identifier.
      const type = /`([A-Z_]+)`/.exec(typeCell)?.[1]
      const raw = JSON.stringify(schemaRegistry().schema(`methods/${id}.schema.json`))
      expect(raw, `${id} fixes type ${type}`).toContain(`"const":"${type}"`)
    }
  })
})

describe('2.2.2 instant-payment provider table (saq-payin, saq-payout)', () => {
  it('Mandatory parameters are required unless "may be set in MID settings"; session fields are in the catalogue', () => {
    const rows = table(spec(), '| Identifier | Parameter | Type | Requirement |')
    expect(rows.length).toBeGreaterThanOrEqual(11)
    const catalogue = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'catalogue', 'methods.json'), 'utf8')) as {
      methods: { id: string; requires?: string[]; admin_settings?: string[] }[]
    }
    for (const [id, paramCell, , requirement] of rows as [string, string, string, string][]) {
      const entry = catalogue.methods.find((m) => m.id === id)
      if (paramCell.startsWith('order.')) {
        // "saq-payin | order.amount | decimal | Mandatory."
        expect(entry?.requires, `${id} requires ${paramCell}`).toContain(paramCell)
        continue
      }
      const name = /^parameters\[(.+)\]$/.exec(paramCell)?.[1] ?? paramCell
      const { props, required } = shape(id)
      expect(props.has(name), `${id}.${name}`).toBe(true)
      const fromMid = /may be set in MID settings/.test(requirement)
      expect(required.has(name), `${id}.${name}: "${requirement}"`).toBe(
        /^Mandatory/.test(requirement) && !fromMid,
      )
      if (fromMid) expect(entry?.admin_settings, `${id}: ${name} is listed as a MID setting`).toContain(name)
    }
  })
})
