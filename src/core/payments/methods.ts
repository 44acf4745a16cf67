import type { MethodCatalogue, MethodCatalogueEntry } from '../../generated/types.js'
import { schemaData } from '../ports/schema-source.js'

interface Lookup {
  exact: Map<string, MethodCatalogueEntry>
  /** Family entries, most specific first ("Exact entries and more specific wildcards win"). */
  families: { pattern: RegExp; entry: MethodCatalogueEntry }[]
}

let lookup: Lookup | undefined

function load(): Lookup {
  const data = schemaData('catalogue/methods.json') as MethodCatalogue
  const exact = new Map<string, MethodCatalogueEntry>()
  const families: Lookup['families'] = []
  for (const entry of data.methods) {
    if (entry.id_pattern) families.push({ pattern: new RegExp(entry.id_pattern), entry })
    else exact.set(entry.id, entry)
  }
  // Aliases (former names) after every identifier, so an alias can never shadow a real identifier.
  for (const entry of data.methods) {
    for (const alias of entry.aliases ?? []) if (!exact.has(alias)) exact.set(alias, entry)
  }
  families.sort((a, b) => b.entry.id.length - a.entry.id.length)
  return { exact, families }
}

/** A merchant's own aliases (`method_aliases` in the configuration): alias -> catalogue identifier. */
export type MethodAliases = Readonly<Record<string, string | undefined>>

/**
 * The catalogue entry (schemas/catalogue/methods.json) for an identifier, an alias (the public
 * names `applepay` = wallet1, `googlepay` = wallet2, docs/rules.md#transport) or a family member. A
 * merchant's `method_aliases` are consulted after the catalogue, so they never shadow a real id.
 */
export function findMethod(id: string, aliases?: MethodAliases): MethodCatalogueEntry | undefined {
  lookup ??= load()
  const found = lookup.exact.get(id) ?? lookup.families.find((f) => f.pattern.test(id))?.entry
  if (found || !aliases || !Object.hasOwn(aliases, id)) return found
  const target = aliases[id]
  return target === undefined || target === id ? undefined : findMethod(target)
}

/** The identifier a MID configuration names the method by: the entry's id, or the member of a family. */
export function canonicalMethodId(id: string): string {
  return resolveMethodId(id)
}

/**
 * As canonicalMethodId, with a merchant's `method_aliases` (docs/rules.md#transport): a merchant alias of a
 * family member (`pix-br` -> `ptw-pix`) names that member.
 */
export function resolveMethodId(id: string, aliases?: MethodAliases): string {
  const entry = findMethod(id, aliases)
  if (!entry) return id
  if (!entry.id_pattern) return entry.id
  return aliases && Object.hasOwn(aliases, id) && !lookup?.exact.has(id) ? (aliases[id] ?? id) : id
}

/** Every identifier that names a method exactly: catalogue ids, their aliases, the merchant's aliases. */
function knownIds(aliases?: MethodAliases): string[] {
  lookup ??= load()
  return [...lookup.exact.keys(), ...Object.keys(aliases ?? {})]
}

/** Optimal string alignment distance (edits, with adjacent swaps), case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      const row = d[i] as number[]
      const prev = d[i - 1] as number[]
      let best = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] ?? 0) + 1)
      row[j] = best
    }
  }
  return (d[s.length] as number[])[t.length] ?? 0
}

const squash = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '')

/**
 * docs/rules.md#method-identifiers: an unknown identifier's error names the closest valid ones. Near means a few
 * edits away (about a third of the identifier), the same letters without separators
 * (`apple_pay` -> `applepay`), or one containing the other (`pix` -> `ptw-pix`, `pyk-pix`).
 */
export function suggestMethods(id: string, aliases?: MethodAliases, limit = 3): string[] {
  const wanted = squash(id)
  // Identifiers are short; anything longer is no near match of one (and is not worth the work).
  if (!wanted || id.length > 64) return []
  const threshold = Math.max(2, Math.floor(wanted.length / 3))
  const scored: { id: string; score: number }[] = []
  for (const known of new Set(knownIds(aliases))) {
    const candidate = squash(known)
    let score: number
    if (candidate === wanted) score = 0
    else if (wanted.length >= 3 && (candidate.includes(wanted) || wanted.includes(candidate)))
      score = 1 + Math.abs(candidate.length - wanted.length) / 10
    // The edit distance is at least the difference in length: most identifiers are ruled out here.
    else if (Math.abs(known.length - id.length) > threshold) continue
    else score = distance(id, known)
    if (score <= threshold) scored.push({ id: known, score })
  }
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((s) => s.id)
}

/** The sentence added to "The value you selected is not a valid choice." for an unknown identifier. */
export function unknownMethodHint(id: string, aliases?: MethodAliases): string {
  const near = suggestMethods(id, aliases)
  return near.length
    ? ` Did you mean: ${near.join(', ')}?`
    : ' The identifiers are those of the interface, section 2.2.'
}

/**
 * docs/rules.md#method-identifiers: the device wallets' public identifiers (`digital_wallet` in callbacks and status
 * answers, "googlepay, applepay"): `applepay` for wallet1, `googlepay` for wallet2, whichever name
 * the payment used. Undefined for every other method.
 */
export function walletName(id: string | undefined): 'applepay' | 'googlepay' | undefined {
  if (!id) return undefined
  const canonical = canonicalMethodId(id)
  if (canonical === 'wallet1') return 'applepay'
  if (canonical === 'wallet2') return 'googlepay'
  return undefined
}
