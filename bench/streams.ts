/**
 * Issue 32 item 4: "Publishing an event costs the request O(1): with 200 streams open, request
 * latency stays within 1.2x of none". Two `paysandbox serve` processes of the same build (pinned
 * to core 0), one with 200 event streams open and read by this process (core 1), one with none;
 * S2S SALEs (a payment, a transaction and callback attempts: several events each) in alternating
 * slices of `--requests` to each, sequentially (1 connection) and at 16 connections.
 *
 *   npm run bench -- streams                      5 rounds of 400 SALEs per slice
 *   npm run bench -- streams --rounds 3 --requests 200 --streams 200
 *
 * Target: the median with the streams open within 1.2x of the median without, at both
 * concurrencies. PAYSANDBOX_BENCH_ROOT measures another checkout's build.
 */
import { spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { BENCH_S2S_SALE } from './http-servers.js'
import { fmt, type Sample } from './lib.js'
import { percentile, runLoad } from './load.js'
import { cpuSeconds, pinLoadGenerator, requireBuild, root, startSandbox } from './processes.js'

export interface StreamsOptions {
  rounds: number
  requests: number
  streams: number
}

/** `count` event streams, read and thrown away as they come; resolves once all are answering. */
async function openStreams(port: number, count: number) {
  const sockets: Socket[] = []
  let bytes = 0
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1')
          sockets.push(socket)
          let head = ''
          socket.on('error', reject)
          socket.on('data', (chunk: Buffer) => {
            bytes += chunk.length
            if (head.length < 4096) {
              head += chunk.toString('latin1')
              if (head.includes(': paysandbox events')) resolve()
              else if (/^HTTP\/1\.1 [45]/.test(head))
                reject(new Error(`stream refused: ${head.split('\r\n')[0]}`))
            }
          })
          socket.write('GET /sandbox/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n')
        }),
    ),
  )
  return {
    bytes: () => bytes,
    close: () => {
      for (const s of sockets) s.destroy()
    },
  }
}

/**
 * The readers in a process of their own (on the load generator's core): reading hundreds of
 * megabytes on the load generator's event loop would slow its requests, not the server's answers.
 */
async function startReaders(port: number, count: number): Promise<{ stop(): Promise<number> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--readers', String(port), String(count)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes('READY')) {
        clearInterval(check)
        resolve()
      }
    }, 20)
    child.once('exit', (code) => {
      clearInterval(check)
      reject(new Error(`stream readers exited (${code}): ${out}`))
    })
  })
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        child.removeAllListeners('exit')
        child.once('exit', () => resolve(Number(/BYTES (\d+)/.exec(out)?.[1] ?? 0)))
        child.stdin.end()
      }),
  }
}

if (process.argv[2] === '--readers') {
  const readers = await openStreams(Number(process.argv[3]), Number(process.argv[4]))
  process.stdout.write('READY\n')
  process.stdin.resume()
  process.stdin.once('end', () => {
    process.stdout.write(`BYTES ${readers.bytes()}\n`)
    readers.close()
    process.exit(0)
  })
}

const sales = (port: number, connections: number, requests: number) =>
  runLoad({
    port,
    method: 'POST',
    path: '/post',
    body: BENCH_S2S_SALE,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    connections,
    requests,
    maxMs: 120_000,
  })

export async function benchStreams(options: StreamsOptions): Promise<{ rows: Sample[]; summary: string }> {
  requireBuild()
  pinLoadGenerator()
  // Room for the streams from this one address (the defaults cap one client at 32).
  const flags = [
    '--max-event-streams',
    String(options.streams),
    '--max-event-streams-per-client',
    String(options.streams),
  ]
  const quiet = await startSandbox(process.env.PAYSANDBOX_BENCH_NO_STREAM_FLAGS ? [] : flags)
  const busy = await startSandbox(process.env.PAYSANDBOX_BENCH_NO_STREAM_FLAGS ? [] : flags)
  const readers = await startReaders(busy.port, options.streams)
  let read = 0
  const rows: Sample[] = []
  const ratios: string[] = []
  let failed = 0
  try {
    for (const connections of [1, 16]) {
      const none: number[] = []
      const open: number[] = []
      // Warm-up (not counted): both servers' code compiled.
      await sales(quiet.port, connections, 200)
      await sales(busy.port, connections, 200)
      // The server's CPU time per SALE too: what the machine's other jobs change least.
      const cpu = new Map<number, number>([
        [quiet.pid, 0],
        [busy.pid, 0],
      ])
      for (let round = 0; round < options.rounds; round++)
        for (const [server, into] of [
          [quiet, none],
          [busy, open],
        ] as const) {
          const cpu0 = cpuSeconds(server.pid)
          const r = await sales(server.port, connections, options.requests)
          cpu.set(server.pid, (cpu.get(server.pid) ?? 0) + cpuSeconds(server.pid) - cpu0)
          failed += r.errors
          into.push(...r.latencies)
        }
      none.sort((a, b) => a - b)
      open.sort((a, b) => a - b)
      const sample = (name: string, list: number[]): Sample => ({
        name,
        runs: list.length,
        medianMs: percentile(list, 0.5),
        p90Ms: percentile(list, 0.9),
      })
      const a = sample(`S2S SALE, ${connections} conn., no stream`, none)
      const b = sample(`S2S SALE, ${connections} conn., ${options.streams} streams`, open)
      rows.push(a, b)
      const perSale = (pid: number, n: number) => ((cpu.get(pid) ?? 0) / n) * 1e6
      ratios.push(
        `${connections} connection${connections > 1 ? 's' : ''}: median ${fmt(b.medianMs / a.medianMs)}x, p90 ${fmt(b.p90Ms / a.p90Ms)}x, server CPU per SALE ${fmt(perSale(busy.pid, open.length))} vs ${fmt(perSale(quiet.pid, none.length))} us = ${fmt(perSale(busy.pid, open.length) / perSale(quiet.pid, none.length))}x`,
      )
    }
  } finally {
    read = await readers.stop()
    await quiet.stop()
    await busy.stop()
  }
  return {
    rows,
    summary: `${root}: with ${options.streams} event streams open (read by another process: ${fmt(read / 2 ** 20)} MB) against none, ${ratios.join('; ')} (target: medians <= 1.2x)${failed ? `; ${failed} requests failed` : ''}`,
  }
}

/** `--rounds N`, `--requests N`, `--streams N` from the command line. */
export function streamsOptions(argv: string[]): StreamsOptions {
  const value = (name: string, fallback: number) => {
    const i = argv.indexOf(name)
    return i >= 0 ? Number(argv[i + 1]) : fallback
  }
  return {
    rounds: value('--rounds', 5),
    requests: value('--requests', 400),
    streams: value('--streams', 200),
  }
}
