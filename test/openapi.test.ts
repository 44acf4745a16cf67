import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../src/assembly.js'
import { createTestGateway } from './helpers/engine.js'

const root = join(import.meta.dirname, '..')
const doc = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8'))

describe('generated OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  // Interface, Endpoints table and decisions.md §2 (paths beyond the table)
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
    expect(body.discriminator).toEqual({ propertyName: 'action' })
    const titles = body.oneOf.map((s: { $ref: string }) => s.$ref.split('/').pop())
    // 18 of the interface plus CREDIT2CARD, GET_TRANS_DETAILS, RETRY (decisions.md §6)
    expect(titles).toHaveLength(21)
    expect(doc.paths['/post'].post.requestBody.content['multipart/form-data']).toBeDefined()
    expect(
      doc.paths['/post-va'].post.requestBody.content['application/x-www-form-urlencoded'].schema.oneOf,
    ).toHaveLength(10)
  })

  // decisions.md §2: "An optional base path (`--base-path /payment`) serves everything under a prefix".
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

  // decisions.md §6: every sandbox choice "must be visible to users: documented in the README or the OpenAPI document"
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
})
