import { writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_HTTP_LIMITS, type RunningSandbox, serve } from '../../src/adapters/serve.js'
import { errorEntry } from '../../src/core/engine/errors.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { createSandbox } from '../../src/library/create-sandbox.js'
import { demoConfig } from '../helpers/engine.js'
import { type RawAnswer, raw } from '../helpers/raw-connection.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Issue 21, requirement 5: "413 from `Content-Length` before the body is read; `Expect:
 * 100-continue` with an oversize length gets 413 or 417, never 100; header and request time-outs
 * and a cap on open connections with documented defaults and flags; health answers within its
 * usual time while 600 slow clients are connected." Rows REQUEST_BODY_TOO_LARGE (413) and
 * REQUEST_TIMEOUT (408), schemas/catalogue/errors.json. Time-outs are real time by nature: the
 * tests set short ones and wait for the answer with a generous bound, never for a fixed time.
 */
/** The connection limits a server shows in GET /sandbox/health (docs/rules.md#connections). */
async function connectionLimits(port: number) {
  const health = (await (await fetch(`http://127.0.0.1:${port}/sandbox/health`)).json()) as {
    connections: { max: number; reserve: number }
  }
  return { max: health.connections.max, reserve: health.connections.reserve }
}

const bodyOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>
const complete = (a: RawAnswer) => a.closed || /\r\n\r\n[\s\S]*\}/.test(a.text)

describe('limits read from the head of a request', () => {
  const running: RunningSandbox[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
  })
  const start = async (options: Parameters<typeof serve>[0] = {}) => {
    const s = await serve({ port: 0, logger: silentLogger, ...options })
    running.push(s)
    return s
  }

  it('answers a body declared larger than the limit with 413 before reading a byte of it', async () => {
    const s = await start()
    const c = raw(s.port)
    // 100 MB declared, none sent: the answer comes all the same, and the connection is closed.
    c.socket.write(
      'POST /api/v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n',
    )
    const answer = await c.until((a) => a.closed)
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer.text.toLowerCase()).toContain('connection: close')
    expect(bodyOf(answer.text)).toMatchObject({
      error_message: errorEntry('REQUEST_BODY_TOO_LARGE').error_message,
    })
  })

  it('answers Expect: 100-continue with an oversize length 413, never 100 Continue', async () => {
    const s = await start()
    const c = raw(s.port)
    c.socket.write(
      'POST /post HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 104857600\r\nExpect: 100-continue\r\n\r\n',
    )
    const answer = await c.until(complete)
    expect(answer.text).not.toContain('100 Continue')
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /)
    expect(bodyOf(answer.text)).toEqual({
      result: 'ERROR',
      http_code: 413,
      error_code: 100000,
      error_message: 'Request body is too large.',
    })
  })

  it('answers Expect: 100-continue 100 Continue once the head is accepted, then reads the body', async () => {
    const s = await start()
    const c = raw(s.port)
    const body = '{"seconds":1}'
    c.socket.write(
      `POST /sandbox/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    )
    await c.until((a) => a.text.includes('100 Continue'))
    expect(c.answer.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/)
    c.socket.write(body)
    const answer = await c.until((a) => /\r\n\r\nHTTP\/1\.1 200 /.test(a.text) && a.text.endsWith('}'))
    expect(answer.text).toContain('"advanced_seconds":1')
    // A head the guard refuses gets its refusal, and no 100 Continue either.
    const refused = raw(s.port)
    refused.socket.write(
      `POST /sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`,
    )
    const cross = await refused.until(complete)
    expect(cross.text).toMatch(/^HTTP\/1\.1 403 /)
  })

  it('answers a head that does not arrive within the header time-out 408, with the structured row', async () => {
    const s = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 })
    const c = raw(s.port)
    c.socket.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    const answer = await c.until((a) => a.closed)
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(bodyOf(answer.text)).toEqual({
      http_code: 408,
      error_code: 100000,
      error_message: errorEntry('REQUEST_TIMEOUT').error_message,
    })
  })

  it('answers a body that stops arriving 408 after the body-idle time-out, in the route envelope', async () => {
    const s = await start({ bodyTimeoutMs: 300 })
    const c = raw(s.port)
    c.socket.write(
      'POST /post HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\naction=SA',
    )
    const answer = await c.until((a) => a.closed)
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer.text.toLowerCase()).toContain('connection: close')
    expect(bodyOf(answer.text)).toEqual({
      result: 'ERROR',
      http_code: 408,
      error_code: 100000,
      error_message: 'Request was not received in time.',
    })
  })

  it('has documented defaults, taken by serve and sandbox.listen', async () => {
    expect(DEFAULT_HTTP_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      bodyTimeoutMs: 10_000,
      maxConnections: 1024,
      reserveConnections: 64,
    })
    const s = await start()
    expect(s.server.headersTimeout).toBe(10_000)
    expect(s.server.requestTimeout).toBe(30_000)
    expect(await connectionLimits(s.port)).toEqual({ max: 1024, reserve: 64 })
    const given = await start({
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 5_000,
      maxConnections: 50,
      reserveConnections: 3,
    })
    expect([given.server.headersTimeout, given.server.requestTimeout]).toEqual([2_000, 5_000])
    expect(await connectionLimits(given.port)).toEqual({ max: 50, reserve: 3 })
    await expect(start({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).rejects.toThrow(
      /header time-out must not be longer than the request time-out/,
    )
    // The library's listen takes the same limits.
    const sandbox = await createSandbox({ logger: silentLogger })
    try {
      const listening = await sandbox.listen({ maxConnections: 1, reserveConnections: 0 })
      expect(await connectionLimits(listening.port)).toEqual({ max: 1, reserve: 0 })
    } finally {
      await sandbox.close()
    }
  })
})

/**
 * docs/rules.md#request-limits: a request node cannot read is answered in the structured envelope
 * (catalogue rows REQUEST_HEAD_INVALID 400, REQUEST_HEADERS_TOO_LARGE 431, REQUEST_BODY_MALFORMED
 * 400 for a broken chunked framing), never node's bare status line; the connection is closed and
 * the server goes on answering. `serve` and `sandbox.listen` share the one HTTP server
 * (adapters/express/server.ts): each case runs through both.
 */
describe('requests node cannot read', () => {
  const starters: [string, () => Promise<{ port: number; close(): Promise<void> }>][] = [
    ['serve', () => serve({ port: 0, logger: silentLogger })],
    [
      'sandbox.listen',
      async () => {
        const sandbox = await createSandbox({ logger: silentLogger })
        const listening = await sandbox.listen()
        return {
          port: listening.port,
          close: async () => {
            await listening.close()
            await sandbox.close()
          },
        }
      },
    ],
  ]
  const envelope = (id: string) => {
    const row = errorEntry(id)
    return { http_code: row.http_code, error_code: row.error_code, error_message: row.error_message }
  }
  const health = async (port: number) => {
    const response = await fetch(`http://127.0.0.1:${port}/sandbox/health`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'ok' })
  }
  const cases: [string, string, number, string][] = [
    [
      'a header name that is not a token',
      'GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: 1\r\n\r\n',
      400,
      'REQUEST_HEAD_INVALID',
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'REQUEST_HEAD_INVALID'],
    [
      'two Content-Length headers',
      'POST /post HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      400,
      'REQUEST_HEAD_INVALID',
    ],
    [
      'headers beyond what node reads (32 KiB)',
      `GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`,
      431,
      'REQUEST_HEADERS_TOO_LARGE',
    ],
    [
      'a chunked body whose chunk size is not hexadecimal',
      'POST /sandbox/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n',
      400,
      'REQUEST_BODY_MALFORMED',
    ],
  ]

  for (const [through, start] of starters) {
    describe(through, () => {
      let running: { port: number; close(): Promise<void> } | undefined
      afterEach(async () => {
        await running?.close()
        running = undefined
      })

      it.each(cases)(
        'answers %s with its catalogue row, closes, and goes on serving',
        async (_, head, status, id) => {
          running = await start()
          const c = raw(running.port)
          c.socket.write(head)
          const answer = await c.until((a) => a.closed)
          expect(answer.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
          expect(answer.text.toLowerCase()).toContain('connection: close')
          expect(answer.text.toLowerCase()).toContain('content-type: application/json')
          expect(bodyOf(answer.text)).toEqual(envelope(id))
          expect(envelope(id).http_code).toBe(status)
          await health(running.port)
        },
      )

      it('survives clients that reset the connection on a bad head, and answers health after', async () => {
        running = await start()
        const port = running.port
        const resets = Array.from({ length: 20 }, (_, i) => {
          const c = raw(port)
          c.socket.write(i % 2 ? 'BAD\r\n\r\n' : `GET / HTTP/1.1\r\nX: ${'a'.repeat(32 * 1024)}\r\n\r\n`)
          c.socket.resetAndDestroy()
          return c.until((a) => a.closed)
        })
        await Promise.all(resets)
        await health(port)
      })
    })
  }
})

/**
 * docs/rules.md#request-limits, Configurable: the config file's `limits.headers_timeout`,
 * `limits.request_timeout`, `limits.body_timeout` (seconds) and `limits.max_connections` set the
 * same limits as the serve flags, with the flags' bounds; a flag beats the file; `sandbox.listen`
 * reads the same keys from its config. Time-outs are real time: the smallest the file allows (1 s)
 * and a generous bound on the answer, never a fixed wait.
 */
describe('limits from the config file', () => {
  const running: RunningSandbox[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
  })
  const fileWith = (limits: Record<string, unknown>) => {
    const file = join(scratchDir('paysandbox-limits-'), 'config.json')
    writeFileSync(file, JSON.stringify({ ...demoConfig(), limits }))
    return file
  }
  const start = async (limits: Record<string, unknown>, options: Parameters<typeof serve>[0] = {}) => {
    const s = await serve({ port: 0, logger: silentLogger, configFile: fileWith(limits), ...options })
    running.push(s)
    return s
  }

  it('limits.max_connections and limits.reserve_connections set the cap and its reserve', async () => {
    const s = await start({ max_connections: 1, reserve_connections: 2 })
    expect(await connectionLimits(s.port)).toEqual({ max: 1, reserve: 2 })
  })

  it('limits.headers_timeout answers a slow head 408, limits.body_timeout a stalled body 408', async () => {
    const s = await start({ headers_timeout: 1, request_timeout: 5, body_timeout: 1 })
    expect([s.server.headersTimeout, s.server.requestTimeout]).toEqual([1_000, 5_000])
    const slowHead = raw(s.port)
    slowHead.socket.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    const stalled = raw(s.port)
    stalled.socket.write(
      'POST /post HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\naction=SA',
    )
    const [head, body] = await Promise.all([slowHead.until((a) => a.closed), stalled.until((a) => a.closed)])
    expect(head.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(bodyOf(head.text)).toEqual({
      http_code: 408,
      error_code: 100000,
      error_message: errorEntry('REQUEST_TIMEOUT').error_message,
    })
    expect(body.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(bodyOf(body.text)).toEqual({
      result: 'ERROR',
      http_code: 408,
      error_code: 100000,
      error_message: errorEntry('REQUEST_TIMEOUT').error_message,
    })
  })

  it('takes a flag over the file, key by key', async () => {
    const s = await start(
      { headers_timeout: 2, request_timeout: 20, max_connections: 1 },
      { headersTimeoutMs: 3_000, maxConnections: 5 },
    )
    expect([s.server.headersTimeout, s.server.requestTimeout]).toEqual([3_000, 20_000])
    expect(await connectionLimits(s.port)).toEqual({ max: 5, reserve: 64 })
  })

  it('is read by sandbox.listen from its config, an option beating it', async () => {
    const sandbox = await createSandbox({
      logger: silentLogger,
      config: { ...demoConfig(), limits: { max_connections: 1, reserve_connections: 5 } },
    })
    try {
      const listening = await sandbox.listen()
      expect(await connectionLimits(listening.port)).toEqual({ max: 1, reserve: 5 })
      const wider = await sandbox.listen({ maxConnections: 2 })
      expect(await connectionLimits(wider.port)).toEqual({ max: 2, reserve: 5 })
    } finally {
      await sandbox.close()
    }
  })

  it.each([
    ['headers_timeout', 0, /limits\.headers_timeout: .*1/],
    ['request_timeout', 3601, /limits\.request_timeout: .*3600/],
    ['body_timeout', 1.5, /limits\.body_timeout: /],
    ['max_connections', '10', /limits\.max_connections: /],
    ['max_connections', 0, /limits\.max_connections: .*1/],
    ['reserve_connections', -1, /limits\.reserve_connections: .*0/],
    ['max_event_streams', 0, /limits\.max_event_streams: .*1/],
    ['max_event_streams_per_client', 1.5, /limits\.max_event_streams_per_client: /],
    ['stream_drain_timeout', 3601, /limits\.stream_drain_timeout: .*3600/],
  ])('refuses limits.%s: %j at start, naming the key and the file', async (key, value, message) => {
    const file = fileWith({ [key]: value })
    const refused = start({ [key]: value })
    await expect(refused).rejects.toThrow(message)
    await expect(serve({ port: 0, logger: silentLogger, configFile: file })).rejects.toThrow(
      `config file ${file}`,
    )
  })

  it('refuses a header time-out longer than the request time-out in the file', async () => {
    await expect(start({ headers_timeout: 40, request_timeout: 30 })).rejects.toThrow(
      /limits\.headers_timeout: 40 s is longer than limits\.request_timeout \(30 s\)/,
    )
  })
})

describe('600 slow clients', () => {
  it('/sandbox/health still answers while 600 clients trickle their headers', async () => {
    const s = await serve({ port: 0, logger: silentLogger })
    const slow: Socket[] = []
    let trickle: ReturnType<typeof setInterval> | undefined
    try {
      const health = async () => {
        const started = performance.now()
        const response = await fetch(`http://127.0.0.1:${s.port}/sandbox/health`)
        expect(response.status).toBe(200)
        await response.json()
        return performance.now() - started
      }
      await health() // warm
      const quiet = await health()
      for (let i = 0; i < 600; i++) {
        const socket = connect(s.port, '127.0.0.1')
        socket.on('error', () => {})
        socket.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
        slow.push(socket)
      }
      await Promise.all(
        slow.map((socket) =>
          socket.connecting ? new Promise((resolve) => socket.once('connect', resolve)) : undefined,
        ),
      )
      // Each slow client sends one more header line now and then, never the end of its head.
      let n = 0
      trickle = setInterval(() => {
        for (const socket of slow) if (!socket.destroyed) socket.write(`X-Slow-${n}: 1\r\n`)
        n++
      }, 200)
      const busy = await health()
      expect(slow.filter((socket) => !socket.destroyed).length).toBeGreaterThanOrEqual(590)
      // The precise figure is in bench/README; here only that it answers, well within a generous bound.
      expect(busy).toBeLessThan(Math.max(5_000, quiet * 100))
    } finally {
      if (trickle) clearInterval(trickle)
      for (const socket of slow) socket.destroy()
      await s.close()
    }
  }, 60_000)
})
