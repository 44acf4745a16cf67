import { ConfigError, loadConfig } from '../adapters/serve/config-file.js'
import type { SandboxConfig, SandboxMerchant } from '../core/engine/context.js'
import type { GatewayResponse } from '../core/engine/http.js'
import { redactHeaders, redactText } from '../core/request-log/redact.js'
import { answerStatus, describeCallback, recordedAnswer, sandboxAnswer, shown } from './answers.js'
import { requestLogOf } from '../core/request-log/index.js'
import { compareAnswers, type Difference } from './compare.js'
import { ReplayInputError } from './errors.js'
import { type CaptureFormat, readCapture } from './input/read.js'
import type { Exchange } from './input/types.js'
import { fieldsOf, prepare, withHash } from './request.js'
import { RoleMap } from './roles.js'
import { type FreshSandbox, freshSandbox, UNDATED_START_MS } from './sandbox.js'
import { apiOfPath, type HashCheck, ReplaySigner } from './signing.js'
import { baseText, findGateway, type GatewayBase, parseGatewayUrl, type Target, targetOf } from './targets.js'

/**
 * `paysandbox replay` (docs/replay.md): a merchant's captured traffic (a HAR 1.2 file, a JSON-lines
 * log of its HTTP client, or both merged by time) sent again, in order, to a fresh sandbox with the
 * merchant's configuration, on a virtual clock moved to each request's recorded time. For every
 * step: the recorded answer, the sandbox's, their differences (volatile values by role), the rule
 * of a refusal, what was put back by role (ids, a masked card) and whether the hash verified.
 * Every output is redacted: card numbers masked, CVVs, passwords and tokens removed.
 */
export interface ReplayOptions {
  files: string[]
  /** A configuration file (its merchants' passwords sign), or the configuration; default: the demo merchant. */
  config?: string | SandboxConfig
  /** The gateway's base URL in the capture, when the file cannot tell it. */
  gateway?: string
}

export interface ReplayAnswer {
  status: number
  /** `application/json`, `text/html`. */
  type?: string
  location?: string
  /** The body, redacted and cut at 4,000 characters (a page by its size). */
  body: string
  /** docs/rules.md#rule-book: `Sandbox-Rule` of a refusal. */
  rule?: string
  warnings?: string[]
}

export interface ReplayStep {
  /** Its position in the capture, 1-based (merged files: in time order). */
  n: number
  file: string
  /** `entry 3`, `line 7`. */
  where: string
  /** When it was sent (ISO 8601), when the capture says. */
  at?: string
  method: string
  /** The recorded URL, redacted. */
  url: string
  status: 'same' | 'different' | 'not-compared' | 'skipped'
  /** Why it was not sent (another site, a static file, the control API). */
  skipped?: string
  /** The path under the gateway, as sent (ids are the fresh sandbox's, tokens removed). */
  path?: string
  action?: string
  request?: { headers: Record<string, string>; body: string }
  recorded?: ReplayAnswer
  sandbox?: ReplayAnswer
  differences: Difference[]
  hash?: HashCheck
  /** What was put back by role, and anything else worth knowing about the step. */
  notes: string[]
  /** The callbacks the sandbox sent while answering it (`sale/settled`). */
  callbacks?: string[]
}

export interface ReplayReport {
  files: { file: string; format: CaptureFormat; requests: number }[]
  gateway: string
  steps: ReplayStep[]
  /** Differences across every step: 0 when the sandbox answered as the gateway did. */
  differences: number
  /** The orders the replayed requests made, for `--export`. */
  orders: { merchant: string; order_id: string }[]
}

export async function runReplay(
  options: ReplayOptions,
): Promise<{ report: ReplayReport; sandbox: FreshSandbox }> {
  const read = await Promise.all(options.files.map(async (file) => ({ file, ...(await readCapture(file)) })))
  const exchanges = merge(read.map((r) => r.exchanges))
  const base = findGateway(exchanges, options.gateway ? parseGatewayUrl(options.gateway) : undefined)
  const format = (e: Exchange) => read.find((r) => r.file === e.file)?.format ?? 'jsonl'
  const targets = exchanges.map((e) => targetOf(e, base, format(e)))
  const config = configOf(options.config)
  const merchants = merchantsOf(exchanges, targets, config)
  const start =
    exchanges.find((e, i) => e.at !== undefined && targets[i]?.kind === 'gateway')?.at ?? UNDATED_START_MS
  const sandbox = freshSandbox(config, base, start)
  const roles = new RoleMap()
  const signer = new ReplaySigner()
  const steps: ReplayStep[] = []
  for (const [i, e] of exchanges.entries()) {
    const target = targets[i] as Target
    steps.push(await replayOne(i + 1, e, target, { sandbox, base, roles, signer, merchants }))
  }
  const report: ReplayReport = {
    files: read.map((r) => ({ file: r.file, format: r.format, requests: r.exchanges.length })),
    gateway: baseText(base),
    steps,
    differences: steps.reduce((n, s) => n + s.differences.length, 0),
    orders: ordersOf(sandbox),
  }
  return { report, sandbox }
}

/** Several captures in one time line (a shop's log and the payer's browser): by recorded time, each kept in its order. */
function merge(lists: Exchange[][]): Exchange[] {
  if (lists.length === 1) return lists[0] as Exchange[]
  for (const list of lists) {
    const undated = list.find((e) => e.at === undefined)
    if (undated)
      throw new ReplayInputError(
        undated.file,
        undated.where,
        'has no time: captures replayed together are merged by time',
      )
  }
  return lists.flat().sort((a, b) => (a.at as number) - (b.at as number))
}

function configOf(given: ReplayOptions['config']): SandboxConfig {
  if (given && typeof given === 'object') return given
  try {
    return loadConfig(given).config
  } catch (error) {
    if (error instanceof ConfigError)
      throw new ReplayInputError(given ?? '--config', undefined, error.message)
    throw error
  }
}

/** The configured merchant of every request that names one; a key the configuration lacks is an error before anything is sent. */
function merchantsOf(
  exchanges: Exchange[],
  targets: Target[],
  config: SandboxConfig,
): Map<string, SandboxMerchant> {
  const byKey = new Map(config.merchants.map((m) => [m.key, m]))
  exchanges.forEach((e, i) => {
    if (targets[i]?.kind !== 'gateway') return
    const fields = fieldsOf(e.body, e.headers)
    const key = fields.merchant_key ?? fields.client_key
    if (typeof key === 'string' && key && !byKey.has(key))
      throw new ReplayInputError(
        e.file,
        e.where,
        `merchant ${JSON.stringify(key)} is not a merchant of the configuration: give its key and password with --config FILE (the replay signs with the configuration's passwords, never with anything in the capture)`,
      )
  })
  return byKey
}

interface Context {
  sandbox: FreshSandbox
  base: GatewayBase
  roles: RoleMap
  signer: ReplaySigner
  merchants: Map<string, SandboxMerchant>
}

async function replayOne(n: number, e: Exchange, target: Target, c: Context): Promise<ReplayStep> {
  const step: ReplayStep = {
    n,
    file: e.file,
    where: e.where,
    ...(e.at !== undefined ? { at: new Date(e.at).toISOString() } : {}),
    method: e.method,
    url: redactText(`${e.url.origin}${e.url.pathname}${e.url.search}`),
    status: 'skipped',
    differences: [],
    notes: [],
  }
  if (target.kind === 'skipped') return { ...step, skipped: target.why }
  if (e.at !== undefined && e.at > c.sandbox.clock.now())
    await c.sandbox.clock.advance(e.at - c.sandbox.clock.now())
  let prepared = prepare(e, target.path, c.roles)
  const notes = [...prepared.notes]
  const api = apiOfPath(target.path)
  const key = prepared.recordedFields.merchant_key ?? prepared.recordedFields.client_key
  const merchant = typeof key === 'string' ? c.merchants.get(key) : undefined
  let hash: HashCheck | undefined
  if (api && merchant) {
    const checked = c.signer.check(api, target.path, prepared.recordedFields, prepared.sentFields, merchant)
    hash = checked.check
    if (checked.hash) prepared = withHash(prepared, prepared.recordedFields.hash, checked.hash)
    if (hash?.note) notes.push(hash.note)
  }
  const recordedJson = e.response ? fieldsOf(e.response.body, e.response.headers) : {}
  c.signer.learn(prepared.recordedFields, recordedJson)
  const before = c.sandbox.callbacks.length
  const answer = await send(c, prepared, e)
  await c.sandbox.idle()
  c.signer.learn(prepared.sentFields, fieldsOf(answer.body, answer.headers))
  const action = typeof prepared.sentFields.action === 'string' ? prepared.sentFields.action : undefined
  const differences = e.response
    ? compareAnswers(
        e.response,
        { status: answerStatus(answer), headers: answer.headers, body: answer.body },
        c.roles,
        `step ${n}`,
      )
    : []
  if (!e.response)
    notes.push('the capture holds no answer to it (the request failed or was aborted): nothing to compare')
  const callbacks = c.sandbox.callbacks.slice(before).map(describeCallback)
  return {
    ...step,
    status: !e.response ? 'not-compared' : differences.length ? 'different' : 'same',
    path: redactText(prepared.path + prepared.search),
    ...(action ? { action } : {}),
    request: {
      headers: redactHeaders(prepared.headers),
      body: shown(prepared.body, prepared.headers['content-type']),
    },
    ...(e.response ? { recorded: recordedAnswer(e.response) } : {}),
    sandbox: sandboxAnswer(answer),
    differences,
    ...(hash ? { hash } : {}),
    notes,
    ...(callbacks.length ? { callbacks } : {}),
  }
}

async function send(c: Context, prepared: ReturnType<typeof prepare>, e: Exchange): Promise<GatewayResponse> {
  const body = new TextEncoder().encode(prepared.body)
  return c.sandbox.gateway.handle({
    method: e.method,
    path: `${c.base.prefix}${prepared.path}`,
    query: prepared.query,
    headers: { ...prepared.headers, ...(body.length ? { 'content-length': String(body.length) } : {}) },
    body,
    ...(c.base.prefix ? { basePath: c.base.prefix } : {}),
    servedHosts: [e.url.host],
    remoteAddress: '203.0.113.10',
  })
}

/** The merchants' orders the replay made, in the order they first appear. */
function ordersOf(sandbox: FreshSandbox): { merchant: string; order_id: string }[] {
  const seen = new Map<string, { merchant: string; order_id: string }>()
  const records = requestLogOf(sandbox.gateway.ctx).query({ order: 'asc', limit: 500 }).records
  for (const r of records)
    if (r.merchant && r.order_id && !seen.has(`${r.merchant}\u0000${r.order_id}`))
      seen.set(`${r.merchant}\u0000${r.order_id}`, { merchant: r.merchant, order_id: r.order_id })
  return [...seen.values()]
}
