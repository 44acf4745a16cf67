import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import type { OperationHandler, RouteDefinition } from '../../src/core/engine/modules.js'
import { jsonResponse } from '../../src/core/engine/http.js'
import { declareControlRoute } from '../../src/core/engine/pipeline.js'
import { schemaRegistry } from '../../src/core/validation/schema-registry.js'
import { createTestGateway } from '../helpers/engine.js'

/**
 * Issue 21 point 2: every route of every API declares its pipeline (pipeline.ts), or says `none`
 * and why. The routes are read from the engine's own modules (the assembly), not from a list.
 */
const gateway = createTestGateway(DEFAULT_MODULES).gateway
const routes: RouteDefinition[] = DEFAULT_MODULES.flatMap((m) => m.routes(gateway.ctx))
const name = (r: RouteDefinition) => `${r.method} ${r.path}`

describe('route declarations', () => {
  it('reads every route the gateway serves', () => {
    expect(routes.map(name).sort()).toEqual(gateway.routes().sort())
    expect(routes.length).toBeGreaterThan(60)
  })

  it('every route declares its pipeline or none with a reason', () => {
    const undeclared = routes.filter((r) => !r.declared).map(name)
    expect(undeclared).toEqual([])
    for (const r of routes) {
      if (r.declared?.kind === 'none') expect(r.declared.reason.trim().length, name(r)).toBeGreaterThan(10)
    }
  })

  it('every request schema a route declares exists', () => {
    const registry = schemaRegistry()
    const exists = (id: string) => registry.schema(`https://paysandbox.dev/schemas/${id}.schema.json`)
    for (const r of routes) {
      const d = r.declared
      if (d?.kind === 'pipeline') expect(exists(d.pipeline.schema), name(r)).toBeTruthy()
      if (d?.kind === 'control') {
        if (d.schema) expect(exists(d.schema), name(r)).toBeTruthy()
        if (d.query) expect(exists(d.query), name(r)).toBeTruthy()
      }
      if (d?.kind === 'actions') {
        expect(Object.keys(d.actions).length, name(r)).toBeGreaterThan(0)
        for (const [action, declared] of Object.entries(d.actions))
          expect(exists(declared.pipeline.schema), `${name(r)} ${action}`).toBeTruthy()
      }
    }
  })

  // Issue 21 point 7: every control route names its response schema, and that schema names it back.
  it('every control route names a response schema whose x-endpoint.responseOf names the route', () => {
    const registry = schemaRegistry()
    const control = routes.filter((r) => r.path.startsWith('/sandbox/'))
    expect(control.length).toBeGreaterThanOrEqual(25)
    for (const r of control) {
      expect(r.declared?.kind, name(r)).toBe('control')
      const d = r.declared as Extract<RouteDefinition['declared'], { kind: 'control' }>
      if (typeof d.response !== 'string') {
        expect(d.response.none.length, name(r)).toBeGreaterThan(10)
        continue
      }
      const schema = registry.schema(`https://paysandbox.dev/schemas/${d.response}.schema.json`) as
        | { 'x-endpoint'?: { responseOf?: string[] } }
        | undefined
      expect(schema, name(r)).toBeTruthy()
      expect(schema?.['x-endpoint']?.responseOf, name(r)).toContain(name(r))
    }
  })

  // The OpenAPI document lists a control route's successful answer under its declared `status`: an answer with
  // another 2xx status would make the document wrong, so the declaration refuses it as an engine bug.
  it("a control route's successful answer must have the status it declares", () => {
    const routeAnswering = (status: number, declared?: 201 | 202) =>
      declareControlRoute({
        method: 'POST',
        path: '/sandbox/status-check',
        summary: 'test',
        pipeline: {},
        response: { none: 'a route built by this test only' },
        ...(declared ? { status: declared } : {}),
        handler: () => jsonResponse(status, {}),
      })
    const call = (route: RouteDefinition) => () =>
      (route.handler as OperationHandler)({
        body: undefined,
        ctx: gateway.ctx,
        request: {},
        params: {},
      } as never)
    expect(call(routeAnswering(201, 201))).not.toThrow()
    expect(call(routeAnswering(202, 202))).not.toThrow()
    expect(call(routeAnswering(200))).not.toThrow()
    // An error answer is not the successful one: it keeps its own status.
    expect(call(routeAnswering(404, 201))).not.toThrow()
    expect(call(routeAnswering(200, 201))).toThrow(/answered 200, but declares 201/)
    expect(call(routeAnswering(201))).toThrow(/answered 201, but declares 200/)
    const declaredStatuses = routes.filter((r) => r.status).map((r) => `${name(r)} ${r.status}`)
    expect(declaredStatuses.length).toBeGreaterThanOrEqual(2)
  })

  it('no control route validates its body by hand: the declared schema is the route request schema', () => {
    for (const r of routes.filter((x) => x.declared?.kind === 'control')) {
      const d = r.declared as Extract<RouteDefinition['declared'], { kind: 'control' }>
      expect(r.request, name(r)).toBe(d.schema ? `${d.schema}.schema.json` : undefined)
      expect(r.query, name(r)).toBe(d.query ? `${d.query}.schema.json` : undefined)
    }
  })
})

describe('handlers are synchronous by type', () => {
  it('an async handler does not typecheck (npm run typecheck covers this file)', () => {
    const sync: OperationHandler = () => jsonResponse(200, {})
    // @ts-expect-error a handler answers a GatewayResponse, never a promise (units are synchronous)
    const asyncHandler: OperationHandler = async () => jsonResponse(200, {})
    // @ts-expect-error nor a promise built any other way
    const promised: OperationHandler = () => Promise.resolve(jsonResponse(200, {}))
    expect(typeof sync).toBe('function')
    expect(typeof asyncHandler).toBe('function')
    expect(typeof promised).toBe('function')
  })
})
