import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MethodCatalogue, MethodCatalogueEntry } from '../../src/generated/types.js'
import { LANGUAGES, MESSAGES, translator } from '../../src/pages/i18n.js'
import { methodName } from '../../src/pages/method-name.js'
import { payWith, text } from './apm-helpers.js'
import { openSession, pagesGateway } from './helpers.js'

// Issue 17, point 1: every catalogue entry (2.2) has a name a payer understands, separate from its
// behaviour group (2.2.2), and no catalogue wording ("(redirect to another page)", "(identifiers
// with no behaviour described beyond their name)") reaches a page, a sentence or a button.

const catalogue = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'catalogue', 'methods.json'), 'utf8'),
) as MethodCatalogue

/** An identifier the entry covers: itself, or a member of its family (`ptw-*` → `ptw-x1`). */
const sampleId = (entry: MethodCatalogueEntry): string => {
  if (!entry.id_pattern) return entry.id
  const base = entry.id.replace(/\*$/, '')
  const candidate = [`${base}x1`, `${base}PW_0099`, `${base}1`].find((id) =>
    new RegExp(entry.id_pattern ?? '').test(id),
  )
  return candidate ?? base
}

const GROUP_LABELS = Object.values(catalogue.groups).flatMap((g) => (g ? [g.label.toLowerCase()] : []))
const JARGON = new RegExp(
  `\\((?:${GROUP_LABELS.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\)`,
  'i',
)

/** The page's visible text, `<code>` (developer notes) left out. */
const visible = (html: string): string => text(html.replace(/<code[\s\S]*?<\/code>/g, ' '))

/** The wording a payer must never read for this entry: its catalogue title (unless it is the brand), its group label. */
function assertNoJargon(shown: string, entry: MethodCatalogueEntry, where: string): void {
  expect(shown, where).not.toMatch(JARGON)
  if (entry.title !== entry.display_name && /[()]/.test(entry.title))
    expect(shown, where).not.toContain(entry.title)
  const group = catalogue.groups[entry.group]?.label
  if (group && entry.group !== 'card')
    expect(shown.toLowerCase(), where).not.toContain(`(${group.toLowerCase()})`)
}

describe('payer-facing method names', () => {
  it('gives every catalogue entry a name in every language that is neither its identifier nor catalogue wording', () => {
    expect(catalogue.methods.length).toBeGreaterThan(250)
    for (const lang of LANGUAGES) {
      const t = translator(lang)
      for (const entry of catalogue.methods) {
        const name = methodName(entry, t)
        expect(name.trim(), `${lang} ${entry.id}`).not.toBe('')
        expect(name, `${lang} ${entry.id}`).not.toMatch(/[()]/)
        expect(name, `${lang} ${entry.id}`).not.toBe(entry.id)
        if (entry.group !== 'card')
          expect(name.toLowerCase(), `${lang} ${entry.id}`).not.toBe(
            catalogue.groups[entry.group]?.label.toLowerCase(),
          )
        // Unbranded methods are described in the payer's language.
        if (!entry.display_name) expect(name).toBe(MESSAGES[lang][`kind_${entry.payer_kind}`])
      }
    }
    expect(
      methodName(
        catalogue.methods.find((m) => m.id === 'airtel'),
        translator('fr'),
      ),
    ).toBe('Airtel Money')
    expect(
      methodName(
        catalogue.methods.find((m) => m.id === 'bpwallet'),
        translator('fr'),
      ),
    ).toBe('Portefeuille électronique')
  })

  it('shows no catalogue wording for any entry on the hosted page (list, heading, button) or its simulator page', async () => {
    const t = pagesGateway()
    let simulated = 0
    for (const entry of catalogue.methods) {
      const id = sampleId(entry)
      if (!entry.operations.includes('purchase') || entry.group === 'card') continue
      const token = await openSession(t, { methods: ['card', id] })
      const page = await t.call('GET', `/auth/${token}?method=${encodeURIComponent(id)}`)
      expect(page.status, id).toBe(200)
      const shown = visible(page.raw)
      assertNoJargon(shown, entry, `${id} hosted page`)
      const name = methodName(entry, translator('en'))
      expect(shown, id).toContain(`Continue with ${name}`)
      if (entry.id === 'vcard') continue // answers at once (docs/rules.md#test-data): no simulator page
      const sim = await payWith(t, id).catch(() => undefined)
      if (!sim) continue
      simulated += 1
      const apm = await t.call('GET', sim.path)
      expect(apm.status, id).toBe(200)
      const apmText = visible(apm.raw)
      assertNoJargon(apmText, entry, `${id} simulator page`)
      expect(apmText, id).toContain(name)
    }
    // Every payin method without required page fields reaches its simulator page.
    expect(simulated).toBeGreaterThan(200)
  }, 120_000)
})
