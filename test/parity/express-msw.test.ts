import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { mswHandlers } from '../../src/msw.js'
import { type RequestSpec, STEPS, type State } from './requests.js'

const BASE = 'https://gateway.test'
// Two sandboxes built alike: the same seed gives the same ids, the virtual clock the same dates.
const options = { seed: 'parity', baseUrl: BASE, onCallback: () => new Response('OK') }
const viaExpress = await createSandbox(options)
const viaMsw = await createSandbox(options)
const listening = await viaExpress.listen()
const server = setupServer(...mswHandlers(viaMsw, BASE))

beforeAll(() =>
  server.listen({
    // msw also sees this file's requests to the express server on 127.0.0.1; those go through.
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error()
    },
  }),
)
afterAll(async () => {
  server.close()
  await Promise.all([viaExpress.close(), viaMsw.close()])
})

interface Answer {
  step: string
  status?: number
  contentType?: string | null
  location?: string | null
  body?: string
}

/**
 * Over the network fetch adds `accept`, `user-agent` and `accept-language` when the caller did not;
 * in-process it does not. The hosted pages record them as the payer's browser data, so both runs
 * send them, and each adapter then hands the engine the same request.
 */
const BROWSER = { accept: '*/*', 'user-agent': 'parity-suite', 'accept-language': 'en' }

function init(spec: RequestSpec): RequestInit {
  const headers: Record<string, string> = { ...BROWSER, ...spec.headers }
  let body = spec.body as RequestInit['body']
  const plain =
    spec.body !== undefined &&
    typeof spec.body === 'object' &&
    !(
      spec.body instanceof Uint8Array ||
      spec.body instanceof URLSearchParams ||
      spec.body instanceof FormData
    )
  if (plain) {
    body = JSON.stringify(spec.body)
    headers['content-type'] ??= 'application/json'
  }
  return { method: spec.method, headers, body, redirect: 'manual' }
}

async function send(root: string, spec: RequestSpec): Promise<Omit<Answer, 'step'>> {
  const controller = new AbortController()
  const response = await fetch(`${root}${spec.path}`, { ...init(spec), signal: controller.signal })
  const contentType = response.headers.get('content-type')
  const location = response.headers.get('location')
  if (!spec.stream) return { status: response.status, contentType, location, body: await response.text() }
  const first = await (response.body as ReadableStream<Uint8Array>).getReader().read()
  controller.abort()
  return { status: response.status, contentType, body: new TextDecoder().decode(first.value) }
}

/**
 * Attempt latency is measured in real time on purpose (a merchant's real endpoint is slow in real
 * time), so it is the one value two runs cannot share; everything else must match to the byte.
 */
const sameLatency = (body: string) => body.replace(/"latency_ms":\d+/g, '"latency_ms":0')

/**
 * The request log (docs/rules.md#request-log) records the headers as they arrived. Over the network
 * fetch frames a body with `content-length`; a Request handed in-process carries no framing. The
 * body and its `bytes` are recorded alike and compared; the framing header is left out of both.
 */
const sameFraming = (body: string) => body.replace(/"content-length":"\d+",?/g, '')

/**
 * Health's `connections` (docs/rules.md#connections) is the HTTP listener's own count of its
 * sockets (adapters/express/connections.ts): in-process there is no listener, so msw has no such
 * figure. It is taken out of the comparison here and its presence over HTTP asserted on its own.
 */
function withoutConnections(answer: Answer): Answer {
  if (answer.step !== 'health' || !answer.body) return answer
  const { connections: _, ...rest } = JSON.parse(answer.body) as Record<string, unknown>
  return { ...answer, body: JSON.stringify(rest) }
}

async function run(sandbox: Sandbox, root: string): Promise<Answer[]> {
  const state: State = {}
  const answers: Answer[] = []
  for (const step of STEPS) {
    if ('payer' in step) {
      await step.payer(sandbox, state)
      answers.push({ step: step.name })
      continue
    }
    const answer = await send(root, step.request(state))
    if (step.capture && answer.status && answer.status < 300)
      step.capture(state, JSON.parse(answer.body ?? '{}'))
    // Callbacks the request caused are delivered before the next one, so the logs read alike.
    await sandbox.idle()
    answers.push({ step: step.name, ...answer, body: sameFraming(sameLatency(answer.body ?? '')) })
  }
  return answers
}

// Design rule: "One parity suite runs the same requests through both and expects identical answers."
describe('parity: express and msw answer alike', () => {
  it('gives identical status, content type, location and body for every request of the table', async () => {
    const overHttp = await run(viaExpress, listening.url)
    const inProcess = await run(viaMsw, BASE)
    const expected = STEPS.map((s) => ('payer' in s ? [s.name] : [s.name, s.status]))
    expect(overHttp.map((a) => (a.status === undefined ? [a.step] : [a.step, a.status]))).toEqual(expected)
    expect(inProcess).toEqual(overHttp.map(withoutConnections))
    const health = (answers: Answer[]) =>
      JSON.parse(answers.find((a) => a.step === 'health')?.body ?? '{}') as Record<string, unknown>
    // Over HTTP health shows the listener's connections (this run's own, at least one open).
    expect(health(overHttp).connections).toMatchObject({ max: 1024, reserve: 64, refused: 0 })
    expect((health(overHttp).connections as { open: number }).open).toBeGreaterThanOrEqual(1)
    expect(health(inProcess)).not.toHaveProperty('connections')
  })

  // The table is the parity suite's scope: a route the sandbox serves and the table never sends is untested here.
  it('sends at least one request to every route the sandbox serves', () => {
    const sent = STEPS.flatMap((s) => ('payer' in s ? [] : [s.request({})]))
    const reaches = (route: string) => {
      const [method, pattern = ''] = route.split(' ')
      const segments = pattern.split('/')
      return sent.some((r) => {
        const parts = (r.path.split('?')[0] ?? '').split('/')
        return (
          r.method === method &&
          parts.length === segments.length &&
          segments.every((p, i) => p.startsWith(':') || p === parts[i])
        )
      })
    }
    expect(viaMsw.gateway.routes().filter((route) => !reaches(route))).toEqual([])
  })
})
