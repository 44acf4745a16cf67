import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MethodCatalogue, MethodCatalogueEntry } from '../../generated/types.js'
import { SCHEMAS_DIR } from '../validation/index.js'

interface Lookup {
  exact: Map<string, MethodCatalogueEntry>
  /** Family entries, most specific first ("Exact entries and more specific wildcards win"). */
  families: { pattern: RegExp; entry: MethodCatalogueEntry }[]
}

let lookup: Lookup | undefined

function load(): Lookup {
  const data = JSON.parse(
    readFileSync(join(SCHEMAS_DIR, 'catalogue', 'methods.json'), 'utf8'),
  ) as MethodCatalogue
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

/** The catalogue entry (schemas/catalogue/methods.json) for an identifier, an alias or a family member. */
export function findMethod(id: string): MethodCatalogueEntry | undefined {
  lookup ??= load()
  return lookup.exact.get(id) ?? lookup.families.find((f) => f.pattern.test(id))?.entry
}

/** The identifier a MID configuration names the method by: the entry's id, or the member of a family. */
export function canonicalMethodId(id: string): string {
  const entry = findMethod(id)
  return entry && !entry.id_pattern ? entry.id : id
}
