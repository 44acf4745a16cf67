import qs from 'qs'
import { describe, expect, it } from 'vitest'
import type { GatewayRequest } from '../../src/core/engine/http.js'
import { parseBody } from '../../src/core/engine/parse.js'
import { validated } from '../../src/core/engine/request-validation.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { validate } from '../../src/core/validation/index.js'
import { createTestGateway } from '../helpers/engine.js'
import { aim, createWorld, type FuzzWorld, fixturesOf, request, schemasByRoute, sign } from './harness.js'
import { createRandom, mutations, nested, type Random } from './mutate.js'

/**
 * Standards: "Bad input always gets a clear, structured error and changes no state; nothing a user
 * sends may produce a 500." For every route of DEFAULT_MODULES (gateway.routes()), valid examples
 * from fixtures/payloads are aimed at a real merchant, payment and session, signed, and broken in
 * every way the route's schema allows; then raw garbage of every media type. Every answer must be
 * below 500, and every 4xx answer must be the error envelope and leave the store, the clock's jobs
 * and the event stream exactly as they were. Deterministic: a fixed seed.
 */
const SEED = 20261102
/** Schema-derived bodies per route (spread over its examples); junk comes on top. */
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 2000)

/**
 * Routes whose schema can be broken in fewer than 1000 ways, with how many are expected at least
 * and why: GET /sandbox/messages takes one optional string (`payment_id`, at most 200 characters)
 * and ignores other parameters, and every query value is a string.
 */
const FEW_BREAKS = new Map([['GET /sandbox/messages', 100]])
/** Routes that take no body: they get the junk only. */
const BODILESS = new Set([
  'POST /sandbox/callbacks/:id/replay',
  'DELETE /sandbox/merchants/:key',
  'DELETE /sandbox/faults',
  'DELETE /sandbox/faults/:id',
])

interface Case {
  label: string
  request: GatewayRequest
  /** The body breaks its schema: the answer must be an error. */
  invalid: boolean
}

const bySchema = schemasByRoute()
const built = createTestGateway(DEFAULT_MODULES).gateway
const routes = built.routes()
const definitions = DEFAULT_MODULES.flatMap((m) => m.routes(built.ctx))
/**
 * The hosted pages (`api: 'page'`) answer a payer's browser: a refusal is an HTML page, and their
 * POSTs are the pages' own forms, read field by field, not an API body with a schema.
 */
const PAGES = new Set(definitions.filter((r) => r.api === 'page').map((r) => `${r.method} ${r.path}`))
/**
 * The routes without an `x-endpoint` request schema (the control API, the Hosted Payment Fields'
 * collect): the body or query schema each declares (declareControlRoute, `request`/`query`), read
 * from the routes themselves, so that a new one is fuzzed as soon as it is declared. Their valid
 * examples are fixtures/payloads/<dir>/<name>.<variant>.json, as for every other schema.
 */
const DECLARED = new Map(
  definitions
    .filter((r) => !bySchema.has(`${r.method} ${r.path}`) && (r.request || r.query))
    .map((r) => [
      `${r.method} ${r.path}`,
      { schema: (r.request ?? r.query ?? '').replace(/\.schema\.json$/, ''), query: !r.request },
    ]),
)
built.stop()

describe('fuzz: every route of DEFAULT_MODULES', () => {
  // A new route that takes a body must come with its schema (and examples), or be listed as bodiless.
  it('has a request schema for every route that takes a body', () => {
    const missing = routes.filter(
      (r) => !r.startsWith('GET ') && !BODILESS.has(r) && !PAGES.has(r) && !targetsOf(r).length,
    )
    expect(missing).toEqual([])
    for (const route of routes)
      for (const { schema } of targetsOf(route)) expect(fixturesOf(schema).length, schema).toBeGreaterThan(0)
  })

  // The control routes' schemas come from their declarations: the ones known when this was written are among them.
  it('reads the body and query schemas of the routes without x-endpoint from their declarations', () => {
    expect(DECLARED.get('POST /sandbox/clock/advance')).toEqual({
      schema: 'sandbox/clock-advance-request',
      query: false,
    })
    expect(DECLARED.get('GET /sandbox/payments')).toEqual({ schema: 'sandbox/payments-query', query: true })
    expect(DECLARED.get('GET /sandbox/messages')).toEqual({ schema: 'control/messages-query', query: true })
    expect(DECLARED.size).toBeGreaterThanOrEqual(17)
  })

  it.each(routes)('%s: no 5xx, and a refusal changes nothing', async (route) => {
    const world = await createWorld()
    const random = createRandom(SEED)
    const cases = [...(await schemaCases(world, route, random)), ...junkCases(world, route, random)]
    const failures: string[] = []
    let refused = 0
    const started = performance.now()
    for (const c of cases) {
      const problem = await check(world, route, c)
      if (problem) failures.push(`${c.label}: ${problem}`)
      if (c.invalid) refused++
    }
    world.gateway.stop()
    if (process.env.FUZZ_TIMING)
      console.log(route, cases.length, 'cases', Math.round(performance.now() - started), 'ms checking')
    expect(failures.slice(0, 8)).toEqual([])
    if (targetsOf(route).length)
      expect(refused, 'schema-breaking bodies sent').toBeGreaterThanOrEqual(FEW_BREAKS.get(route) ?? 1000)
  })
})

function targetsOf(route: string) {
  const declared = DECLARED.get(route)
  if (declared) return [{ ...declared, contentType: 'application/json', token: false }]
  return (bySchema.get(route) ?? []).map(({ schema, endpoint }) => ({
    schema,
    contentType: endpoint.contentType,
    token: endpoint.headers?.includes('Token') ?? false,
    query: false,
  }))
}

/** What the engine will see of a body: validity is judged on that (bracket keys expanded, unsafe keys dropped). */
async function breaksSchema(schema: string, contentType: string, bytes: Uint8Array): Promise<boolean> {
  try {
    const parsed = await parseBody(contentType, bytes)
    if (!parsed.ok) return true
    // S2S forms are read as the engine reads them: empty values count as absent.
    if (schema.startsWith('s2s-card/') || schema.startsWith('s2s-apm/'))
      return !accepts(() => validated(schema, parsed.value, 'bracket'))
    return !validate(schema, parsed.value).valid
  } catch {
    return true // the engine will meet the same throw: check() reports it
  }
}

function accepts(check: () => unknown): boolean {
  try {
    check()
    return true
  } catch {
    return false
  }
}

async function schemaCases(world: FuzzWorld, route: string, random: Random): Promise<Case[]> {
  const [method, path] = route.split(' ') as [string, string]
  const out: Case[] = []
  const targets = targetsOf(route)
  for (const target of targets) {
    const seeds = fixturesOf(target.schema)
    const share = Math.ceil(BUDGET / targets.length / seeds.length)
    for (const [n, fixture] of seeds.entries()) {
      const valid = aim(world, target.schema, fixture)
      const check = validate(target.schema, valid)
      if (!check.valid)
        throw new Error(`${target.schema} example ${n} is not valid: ${JSON.stringify(check.errors)}`)
      const token = path.includes('/debit/') ? world.tokens.debit : world.tokens.purchase
      const headers = { 'content-type': target.contentType, ...(target.token ? { token } : {}) }
      const all = mutations(target.schema, valid, random, share)
      // Every single-rule break when they fit, else a seeded sample of them, then combinations.
      const chosen = all.length <= share ? all : sample(all, share, random)
      for (const [i, mutant] of chosen.entries()) {
        const body = sign(target.schema, mutant as Record<string, unknown>)
        const label = `${target.schema} #${n}.${i}`
        if (target.query) {
          const query = Object.fromEntries(
            Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          )
          const invalid = !validate(target.schema, query).valid
          out.push({ label, request: request(method, path, new Uint8Array(), {}, query), invalid })
          continue
        }
        const text = target.contentType.includes('json') ? JSON.stringify(body) : qs.stringify(body)
        const bytes = new TextEncoder().encode(text)
        const invalid = await breaksSchema(target.schema, target.contentType, bytes)
        out.push({ label, request: request(method, path, bytes, headers), invalid })
      }
    }
  }
  return out
}

function sample<T>(items: T[], n: number, random: Random): T[] {
  const pool = [...items]
  for (let i = 0; i < n; i++) {
    const j = i + random.int(pool.length - i)
    ;[pool[i], pool[j]] = [pool[j] as T, pool[i] as T]
  }
  return pool.slice(0, n)
}

const MEDIA = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'multipart/form-data',
  'text/plain',
  '',
  'application/json; charset=utf-16',
  'application/problem+json',
]
const PARAMS = [
  '%',
  '%00',
  '..',
  '%2e%2e',
  'a'.repeat(3000),
  '😀',
  '%F0%9F%98%80',
  '__proto__',
  'constructor',
  "' OR 1=1",
]

function* junkCases(world: FuzzWorld, route: string, random: Random): Generator<Case> {
  const [method, pattern] = route.split(' ') as [string, string]
  const paths = pattern.includes(':')
    ? [...PARAMS, world.payment.id].map((v) => pattern.replace(/:[^/]+/g, v))
    : [pattern]
  const limit = world.gateway.ctx.config.limits?.body_bytes ?? 1024 * 1024
  const texts = [
    '[]',
    '"s"',
    '123',
    'null',
    '{',
    '{"a":}',
    '\ufeff{}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    JSON.stringify(nested(3000)),
    `${'a'.repeat(1)}${'[b]'.repeat(200)}=1`,
    'a=1&'.repeat(5000),
    '--fuzz\r\nContent-Disposition: form-data; name="merchant_key"\r\n\r\ndemo-merchant\r\n--fuzz--\r\n',
    '--fuzz\r\nContent-Disposition: form-data; name="x"\r\n\r\n',
  ]
  let i = 0
  // Each odd path gets one plain request; every media type and body goes to the first.
  for (const [p, path] of paths.entries())
    for (const media of p === 0 ? MEDIA : MEDIA.slice(0, 1)) {
      if (p > 0) {
        yield {
          label: `path ${i++}`,
          request: request(method, path, new TextEncoder().encode('{}'), { 'content-type': media }),
          invalid: false,
        }
        continue
      }
      const headers: Record<string, string> = media ? { 'content-type': media } : {}
      for (const text of texts)
        yield {
          label: `junk ${i++}`,
          request: request(method, path, new TextEncoder().encode(text), headers),
          invalid: false,
        }
      for (const size of [1, 17, 513, 4096]) {
        const bytes = Uint8Array.from({ length: size }, () => random.int(256))
        yield { label: `bytes ${i++}`, request: request(method, path, bytes, headers), invalid: false }
      }
    }
  yield {
    label: 'over the limit',
    request: request(method, pattern, new Uint8Array(limit + 1), { 'content-type': 'application/json' }),
    invalid: true,
  }
}

/** The answer's problem, or undefined when it is as the standards say. */
async function check(world: FuzzWorld, route: string, c: Case): Promise<string | undefined> {
  // What an earlier accepted request set going (a callback delivery) settles before counting starts.
  await new Promise((r) => setImmediate(r))
  const changes = world.changes()
  const events = world.events
  const jobs = world.clock.pending()
  const bugs = world.bugs.length
  const response = await world.gateway.handle(c.request)
  const bug = world.bugs.length > bugs ? ` (logged: ${world.bugs.at(-1)?.slice(0, 300)})` : ''
  if (response.status >= 500) return `HTTP ${response.status}${bug}`
  if (bug) return `logged a bug${bug}`
  if (c.invalid && response.status < 400) return `accepted a schema-breaking body (HTTP ${response.status})`
  const unchanged = world.changes() === changes && world.events === events && world.clock.pending() === jobs
  if (route.startsWith('GET ') && !unchanged) return 'a GET changed state'
  if (response.status < 400) return undefined
  if (!unchanged) return `HTTP ${response.status} but the state changed`
  // A page refuses with an HTML page; a path the router cannot even read gets the plain 404 envelope.
  if (PAGES.has(route) && (response.headers['content-type'] ?? '').startsWith('text/html')) return undefined
  // docs/rules.md#session-update: the session update answers a bad Token with 403 and an HTML page, as the platform does.
  const html = (response.headers['content-type'] ?? '').startsWith('text/html')
  if (route === 'PUT /api/v1/session/update' && response.status === 403 && html) return undefined
  let body: { http_code?: unknown; error_code?: unknown; error_message?: unknown }
  try {
    body = JSON.parse(response.body)
  } catch {
    return `HTTP ${response.status} without a JSON body`
  }
  if (
    body.http_code !== response.status ||
    typeof body.error_code !== 'number' ||
    typeof body.error_message !== 'string'
  )
    return `not the error envelope: ${response.body.slice(0, 200)}`
  return undefined
}
