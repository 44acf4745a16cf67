import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../src/assembly.js'
import { APM_ACTIONS_AT_POST, S2S_APM_ACTIONS } from '../src/core/s2s-apm/module.js'
import { paymentActions as cardPaymentActions } from '../src/core/s2s-card/payment-actions.js'
import { scheduleActions } from '../src/core/s2s-card/schedule-actions.js'
import { createTestGateway } from './helpers/engine.js'

const root = join(import.meta.dirname, '..')
const doc = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8'))

const S2S_PATHS = ['/post', '/v2/post', '/post-va']

const formSchema = (path: string) =>
  doc.paths[path].post.requestBody.content['application/x-www-form-urlencoded'].schema

/** The `action` values the document accepts on an S2S path: each request schema's `const` or `enum`. */
function documentedActions(path: string): string[] {
  return formSchema(path).oneOf.flatMap((s: { $ref: string }) => {
    const action = doc.components.schemas[s.$ref.split('/').pop() as string].properties.action
    return action.const !== undefined ? [action.const as string] : (action.enum as string[])
  })
}

describe('generated OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  // Interface, Endpoints table and docs/rules.md#transport (paths beyond the table)
  it('covers every Checkout, S2S CARD and S2S APM endpoint', () => {
    const paths = Object.keys(doc.paths)
    for (const path of [
      '/api/v1/session',
      '/api/v1/session/token',
      '/api/v1/session/update',
      '/api/v1/processing/purchase/card',
      '/api/v1/processing/debit/card',
      '/api/v1/payment/card/credit',
      '/api/v1/payment/capture',
      '/api/v1/payment/void',
      '/api/v1/payment/refund',
      '/api/v1/payment/recurring',
      '/api/v1/payment/retry',
      '/api/v1/payment/status',
      '/post',
      '/v2/post',
      '/post-va',
    ]) {
      expect(paths).toContain(path)
    }
    expect(doc.paths['/api/v1/session/update'].put).toBeDefined()
  })

  it('offers every S2S action on /post, discriminated by action, as a form', () => {
    const body = doc.paths['/post'].post.requestBody.content['application/x-www-form-urlencoded'].schema
    expect(body.discriminator.propertyName).toBe('action')
    const titles = body.oneOf.map((s: { $ref: string }) => s.$ref.split('/').pop())
    // 18 of the interface plus CREDIT2CARD, GET_TRANS_DETAILS, RETRY (docs/rules.md#beyond-the-interface), plus the five
    // S2S APM requests "also accepted at `/post`" (docs/rules.md#transport).
    expect(titles).toHaveLength(26)
    expect(doc.paths['/post'].post.requestBody.content['multipart/form-data']).toEqual(
      doc.paths['/post'].post.requestBody.content['application/x-www-form-urlencoded'],
    )
    expect(
      doc.paths['/post-va'].post.requestBody.content['application/x-www-form-urlencoded'].schema.oneOf,
    ).toHaveLength(10)
    // Every action value the discriminator maps names one of the path's request schemas, and back.
    for (const path of S2S_PATHS) {
      const schema = formSchema(path)
      const targets = new Set(Object.values(schema.discriminator.mapping))
      expect([...targets].sort(), path).toEqual(schema.oneOf.map((s: { $ref: string }) => s.$ref).sort())
    }
  })

  // docs/rules.md#transport: "DEBIT2VIRTUAL, its `_CALC`/`_COMPLETE`, CREDIT2VIRTUAL and CREDIT2CRYPTO are also
  // accepted at `/post`". The set of actions each S2S path accepts is read from the engine (its action
  // tables, each name tried against the served route), never written here, and must equal the set the
  // OpenAPI document lists for that path: its request schemas' `action` values and the discriminator's keys.
  it('lists exactly the actions the engine accepts on /post, /v2/post and /post-va', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const post = (path: string, action: string) =>
      t.call('POST', path, new URLSearchParams({ action }).toString())
    const candidates = new Set([
      ...Object.keys(cardPaymentActions),
      ...Object.keys(scheduleActions),
      ...Object.keys(S2S_APM_ACTIONS),
      ...S2S_PATHS.flatMap(documentedActions),
    ])
    for (const path of S2S_PATHS) {
      // What the route answers to an action it does not know, read from the engine itself.
      const unknown = (await post(path, 'NO_SUCH_ACTION')).body
      expect(unknown.result, path).toBe('ERROR')
      const accepted: string[] = []
      for (const action of candidates) {
        const r = await post(path, action)
        expect(r.status, `${path} ${action}`).toBeLessThan(500)
        if (JSON.stringify(r.body) !== JSON.stringify(unknown)) accepted.push(action)
      }
      expect(documentedActions(path).sort(), path).toEqual(accepted.sort())
      expect(Object.keys(formSchema(path).discriminator.mapping).sort(), path).toEqual(accepted.sort())
    }
    // The engine's own declaration of the APM actions at /post is among them, and not on /v2/post.
    expect(documentedActions('/post')).toEqual(expect.arrayContaining([...APM_ACTIONS_AT_POST]))
    expect(documentedActions('/v2/post').filter((a) => APM_ACTIONS_AT_POST.has(a))).toEqual([])
    t.gateway.stop()
  })

  // docs/rules.md#base-path: "An optional base path (`--base-path /payment`) serves everything under a prefix".
  it('declares the optional base path as a server variable', () => {
    expect(doc.servers[0].url).toBe('http://localhost:8080{basePath}')
    expect(doc.servers[0].variables.basePath.default).toBe('')
  })

  it('declares the Token header where the interface requires it', () => {
    const update = doc.paths['/api/v1/session/update'].put
    expect(update.parameters).toContainEqual(
      expect.objectContaining({ name: 'Token', in: 'header', required: true }),
    )
  })

  it('resolves every $ref inside the document', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []
    expect(refs.length).toBeGreaterThan(100)
    for (const raw of new Set(refs)) {
      const pointer = raw.slice(8, -1)
      expect(pointer.startsWith('#/'), pointer).toBe(true)
      let node: unknown = doc
      for (const part of pointer.slice(2).split('/'))
        node = (node as Record<string, unknown> | undefined)?.[part]
      expect(node, pointer).toBeDefined()
    }
  })

  // docs/rules.md#beyond-the-interface: every sandbox choice "must be visible to users: documented in the README or the OpenAPI document"
  it('documents every route the engine serves, control API and hosted pages included', () => {
    const { gateway } = createTestGateway(DEFAULT_MODULES)
    gateway.stop()
    const served = gateway.routes().map((r) => {
      const [method, path] = r.split(' ') as [string, string]
      return `${method.toLowerCase()} ${path.replace(/:([A-Za-z_]+)/g, '{$1}')}`
    })
    expect(served.length).toBeGreaterThan(20)
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((method) => `${method} ${path}`),
    )
    expect(served.filter((r) => !documented.includes(r))).toEqual([])
  })

  // docs/rules.md#control-api: a control route that creates answers 201, one that accepts work for later 202;
  // the document lists the status each route declares (declareControlRoute `status`), never 200 in its place.
  it("lists each route's successful answer under the status its declaration gives", () => {
    const { gateway } = createTestGateway(DEFAULT_MODULES)
    gateway.stop()
    const routes = DEFAULT_MODULES.flatMap((m) => m.routes(gateway.ctx))
    const declared = new Set(routes.map((r) => r.status ?? 200))
    // The declarations have routes beyond 200 (otherwise this test checks nothing).
    expect([...declared].sort()).toEqual(expect.arrayContaining([200, 201, 202]))
    const wrong: string[] = []
    for (const r of routes) {
      const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}')
      const operation = doc.paths[path]?.[r.method.toLowerCase()] as { responses: object } | undefined
      const success = Object.keys(operation?.responses ?? {}).filter((code) => code.startsWith('2'))
      if (success.join() !== String(r.status ?? 200)) wrong.push(`${r.method} ${r.path}: ${success.join()}`)
    }
    expect(wrong).toEqual([])
  })
})
