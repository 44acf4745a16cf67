import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSchemaRegistry, resolveSchemaId } from '../../src/core/validation/schema-registry.js'
import { validate } from '../../src/core/validation/validate.js'
import type { PrecompiledValidator } from '../../src/core/ports/schema-source.js'
import { PACKAGE_ROOT } from '../../src/package-root.js'
import { fileSchemaSource } from '../../src/schema-files.js'

/**
 * `npm run build` compiles the configuration schema's validator ahead (ajv standalone code, issue
 * 15 start-up); the built CLI uses it instead of compiling. It must answer exactly as the
 * validator ajv compiles from schemas/ now: same verdict, same errors, same field messages.
 */
const built = join(PACKAGE_ROOT, 'dist', 'validators', 'sandbox', 'config.cjs')
const demo = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'fixtures', 'config', 'demo.json'), 'utf8'))
const merchant = { key: 'm1', password: 'password-1', mids: [{ id: 'mid-1' }] }

const CASES: [string, unknown][] = [
  ['the demo config', demo],
  ['a bare merchant', { merchants: [merchant] }],
  ['no merchants', {}],
  ['an unknown top-level field', { merchants: [merchant], port: 8080 }],
  ['a short password and a bad key', { merchants: [{ ...merchant, key: '-x', password: 'short' }] }],
  ['a bad notification_url', { merchants: [{ ...merchant, notification_url: 'ftp://x' }] }],
  ['a bad clock mode and start', { clock: { mode: 'fast', start: 'yesterday' }, merchants: [merchant] }],
  [
    'retries of the wrong type',
    { callbacks: { retries: 'yes', retry_schedule_seconds: [0] }, merchants: [merchant] },
  ],
  [
    'a MID with an unknown payment mode',
    { merchants: [{ ...merchant, mids: [{ id: 'x', payment_mode: 'ABC' }] }] },
  ],
]

describe('the configuration validator compiled ahead by the build (dist/validators)', () => {
  it('is built', () => {
    expect(existsSync(built), 'run npm run build').toBe(true)
  })

  const ahead = createRequire(import.meta.url)(built) as PrecompiledValidator
  const compiled = createSchemaRegistry(fileSchemaSource()).validator('sandbox/config.schema.json')
  const precompiledRegistry = createSchemaRegistry({
    files: () => fileSchemaSource().files(),
    precompiled: (path) => (resolveSchemaId(path) === resolveSchemaId('sandbox/config') ? ahead : undefined),
  })

  it.each(CASES)('%s: same verdict and errors as ajv compiling schemas/ now', (_, config) => {
    const a = ahead(structuredClone(config))
    const aErrors = structuredClone(ahead.errors ?? null)
    const b = compiled(structuredClone(config))
    expect(a).toBe(b)
    expect(aErrors).toEqual(compiled.errors ?? null)
    // And the field errors the loader prints, through a registry that uses it.
    const viaAhead = validate('sandbox/config.schema.json', config, { registry: precompiledRegistry })
    const viaCompiled = validate('sandbox/config.schema.json', config)
    expect(viaAhead).toEqual(viaCompiled)
  })

  it('is looked for once per schema, not at every validation (a file lookup on the request path)', () => {
    const asked: string[] = []
    const registry = createSchemaRegistry({
      files: () => fileSchemaSource().files(),
      precompiled: (path) => {
        asked.push(path)
        return undefined
      },
    })
    for (let i = 0; i < 3; i++) registry.validator('checkout/session-request')
    expect(asked).toEqual(['checkout/session-request.schema.json'])
  })

  it('the cases include refusals', () => {
    expect(CASES.filter(([, c]) => !compiled(structuredClone(c))).length).toBeGreaterThan(5)
  })
})
