import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Verbatim excerpts of the gateway interface document, committed under data/interface/
 * (docs/interface-data.md): the tests that compare the repository with the interface read these,
 * so they run on a clone that has nothing beside it. `.ci/run` checks them against the document
 * when it is available (scripts/interface-excerpts.ts).
 */
export type ExcerptName = '2.2-payment-methods' | 'states-and-transitions' | 'events' | 'errors' | 'limits'

export const INTERFACE_DATA_DIR = join(import.meta.dirname, '..', '..', 'data', 'interface')

export function interfaceExcerpt(name: ExcerptName): string {
  return readFileSync(join(INTERFACE_DATA_DIR, `${name}.md`), 'utf8')
}

/** Every excerpt, in document order, for checks that look a sentence up anywhere in them. */
export function allInterfaceExcerpts(): string {
  const index = JSON.parse(readFileSync(join(INTERFACE_DATA_DIR, 'excerpts.json'), 'utf8')) as {
    excerpts: { file: string }[]
  }
  return index.excerpts.map((e) => readFileSync(join(INTERFACE_DATA_DIR, e.file), 'utf8')).join('\n')
}
