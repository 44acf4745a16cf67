/**
 * Issue 32, items 2 and 3: what held connections do to everyone else, tried the way a hostile page
 * or a careless client would, against `paysandbox serve` with its default limits (the built
 * binary; PAYSANDBOX_BENCH_ROOT measures another checkout's build with the same command).
 *
 *   npm run bench -- pressure                          every mode
 *   npm run bench -- pressure --modes idle,streams      some (idle, keep-alive, streams, stalled)
 *   npm run bench -- pressure --hold 1024 --seconds 10  connections held, seconds of probes
 *
 * - idle: `--hold` sockets that never send a request;
 * - keep-alive: `--hold` connections that each made a request and stay idle between requests
 *   (one every 4 s, within node's 5-s keep-alive time-out);
 * - streams: `--hold` GET /sandbox/events, read as they come.
 * Every connection the server closes is opened again at once (a hostile client keeps the pressure
 * on). Meanwhile, one at a time on a new connection, GET /sandbox/health and GET
 * /sandbox/payments (the console's list), each given 2 s: the line says how many were answered.
 *
 * - stalled: 50 event streams whose readers stop reading, while S2S SALEs make events until their
 *   queues are full; then every 5 s for `--after` seconds, how many of them the server still holds
 *   and the kernel memory their sockets hold (`ss -tm`: the server's send queues, the readers'
 *   receive queues).
 */
import { spawnSync } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { BENCH_S2S_SALE } from './http-servers.js'
import { runLoad } from './load.js'
import { pinLoadGenerator, requireBuild, root, rssMb, sleep, startSandbox } from './processes.js'

const say = (line: string) => console.log(line)
const PROBE_MS = 2_000

export interface PressureOptions {
  modes: string[]
  hold: number
  seconds: number
  after: number
  /** The build takes the event-stream flags (PAYSANDBOX_BENCH_ROOT may name one that does not). */
  streamFlags: boolean
}

type Kind = 'idle' | 'keep-alive' | 'streams'

/** `size` hostile connections of one kind, each opened again as soon as the server closes it. */
function holdConnections(port: number, size: number, kind: Kind) {
  const sockets = new Set<Socket>()
  let stopped = false
  let reopened = 0
  let refused = 0
  const open = () => {
    if (stopped) return
    const socket = connect(port, '127.0.0.1')
    sockets.add(socket)
    socket.setNoDelay(true)
    let seen = ''
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => {
      if (kind === 'streams' && seen.length < 64) {
        seen += chunk.toString('latin1')
        if (/^HTTP\/1\.1 [45]/.test(seen)) refused++
      }
    })
    socket.on('close', () => {
      sockets.delete(socket)
      if (stopped) return
      reopened++
      // A refused stream tries again a little later; any other connection at once.
      if (kind === 'streams') setTimeout(open, 100)
      else setImmediate(open)
    })
    socket.on('connect', () => {
      if (kind === 'keep-alive') socket.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      if (kind === 'streams')
        socket.write('GET /sandbox/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n')
    })
  }
  for (let i = 0; i < size; i++) open()
  const again =
    kind === 'keep-alive'
      ? setInterval(() => {
          for (const s of sockets)
            if (!s.connecting && !s.destroyed)
              s.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
        }, 4_000)
      : undefined
  return {
    count: () => sockets.size,
    reopened: () => reopened,
    refused: () => refused,
    stop() {
      stopped = true
      if (again) clearInterval(again)
      for (const s of sockets) s.destroy()
    },
  }
}

/** One request on a new connection: did a 200 with a JSON body come back within PROBE_MS? */
function probe(port: number, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const done = (ok: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(ok)
    }
    const timer = setTimeout(() => done(false), PROBE_MS)
    socket.on('error', () => done(false))
    socket.on('close', () => done(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]*\}$/.test(text)))
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
      if (/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]*\}$/.test(text)) done(true)
    })
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
  })
}

async function probeFor(port: number, seconds: number) {
  const until = Date.now() + seconds * 1000
  const health = { answered: 0, sent: 0 }
  const list = { answered: 0, sent: 0 }
  for (let i = 0; Date.now() < until; i++) {
    const [path, count] = i % 2 ? ['/sandbox/payments?per_page=1', list] : ['/sandbox/health', health]
    count.sent++
    if (await probe(port, path)) count.answered++
    await sleep(25)
  }
  return { health: `${health.answered} of ${health.sent}`, console: `${list.answered} of ${list.sent}` }
}

async function healthJson(port: number): Promise<string> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/sandbox/health`, { signal: AbortSignal.timeout(5_000) })
    return await r.text()
  } catch (error) {
    return `(no answer: ${(error as Error).message})`
  }
}

async function partHeld(kind: Kind, options: PressureOptions) {
  const sandbox = await startSandbox()
  try {
    const quiet = await probeFor(sandbox.port, 2)
    const held = holdConnections(sandbox.port, options.hold, kind)
    await sleep(kind === 'streams' ? 4_000 : 2_000)
    const busy = await probeFor(sandbox.port, options.seconds)
    const count = held.count()
    const reopened = held.reopened()
    const refused = held.refused()
    const health = await healthJson(sandbox.port)
    held.stop()
    say(
      `  ${kind.padEnd(10)} ${options.hold} held: health answered ${busy.health}, console list ${busy.console} (alone: ${quiet.health}, ${quiet.console}); ${count} held connections open at the end, ${reopened} reopened${kind === 'streams' ? `, ${refused} streams refused` : ''}; server RSS ${rssMb(sandbox.pid).toFixed(0)} MB`,
    )
    say(`             health under pressure: ${health}`)
  } finally {
    await sandbox.stop()
  }
}

/** Established connections to (server side) and from (reader side) `port`, with their queued bytes. */
function socketMemory(port: number) {
  const run = (filter: string) =>
    spawnSync('ss', ['-tnmH', 'state', 'established', filter], { encoding: 'utf8' }).stdout ?? ''
  const sum = (text: string, field: 'w' | 'r') => {
    let bytes = 0
    let count = 0
    for (const m of text.matchAll(new RegExp(`skmem:\\([^)]*\\b${field}(\\d+)`, 'g'))) {
      bytes += Number(m[1])
      count++
    }
    return { bytes, count }
  }
  const server = sum(run(`( sport = :${port} )`), 'w')
  const readers = sum(run(`( dport = :${port} )`), 'r')
  return { server, readers }
}

async function partStalled(options: PressureOptions) {
  const STALLED = 50
  // All 50 from this one address: the per-client cap (32 by default) would refuse 18 of them.
  const sandbox = await startSandbox(options.streamFlags ? ['--max-event-streams-per-client', '64'] : [])
  const readers: Socket[] = []
  try {
    for (let i = 0; i < STALLED; i++) {
      const socket = connect(sandbox.port, '127.0.0.1')
      socket.on('error', () => {})
      socket.write('GET /sandbox/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n')
      readers.push(socket)
    }
    await sleep(1_000)
    for (const s of readers) s.pause()
    // Events until the queues are full (the server's send queues stop growing): each SALE is a
    // payment, a transaction and callback attempts.
    const started = Date.now()
    let sales = 0
    let queued = 0
    for (let round = 0; round < 60 && Date.now() - started < 240_000; round++) {
      const r = await runLoad({
        port: sandbox.port,
        method: 'POST',
        path: '/post',
        body: BENCH_S2S_SALE,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        connections: 8,
        requests: 1_000,
        maxMs: 30_000,
      })
      sales += r.latencies.length
      const now = socketMemory(sandbox.port).server.bytes
      if (round > 2 && now < queued * 1.01) break
      queued = Math.max(queued, now)
    }
    say(
      `  stalled    ${STALLED} event streams not read, ${sales} S2S SALEs in ${((Date.now() - started) / 1000).toFixed(0)} s until the server's send queues stopped growing`,
    )
    for (let t = 0; t <= options.after; t += 5) {
      const m = socketMemory(sandbox.port)
      say(
        `    +${String(t).padStart(3)} s: server holds ${String(m.server.count).padStart(3)} connections, ${(m.server.bytes / 2 ** 20).toFixed(1)} MB queued to send; readers' receive queues ${(m.readers.bytes / 2 ** 20).toFixed(1)} MB; server RSS ${rssMb(sandbox.pid).toFixed(0)} MB`,
      )
      if (t < options.after) await sleep(5_000)
    }
    say(`             health: ${await healthJson(sandbox.port)}`)
  } finally {
    for (const s of readers) s.destroy()
    await sandbox.stop()
  }
}

export async function benchPressure(options: PressureOptions): Promise<void> {
  requireBuild()
  pinLoadGenerator()
  say(
    `connection pressure against ${root} (paysandbox serve, default limits); ${options.hold} held connections, probes for ${options.seconds} s`,
  )
  for (const kind of ['idle', 'keep-alive', 'streams'] as const)
    if (options.modes.includes(kind)) await partHeld(kind, options)
  if (options.modes.includes('stalled')) await partStalled(options)
}

const ALL_MODES = ['idle', 'keep-alive', 'streams', 'stalled']

/** `--modes a,b`, `--hold N`, `--seconds N`, `--after N` from the command line. */
export function pressureOptions(argv: string[]): PressureOptions {
  const value = (name: string) => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const modes = (value('--modes') ?? ALL_MODES.join(',')).split(',')
  for (const m of modes) if (!ALL_MODES.includes(m)) throw new Error(`bench pressure: unknown mode ${m}`)
  return {
    modes,
    hold: Number(value('--hold') ?? 1024),
    seconds: Number(value('--seconds') ?? 10),
    after: Number(value('--after') ?? 45),
    streamFlags: !argv.includes('--no-stream-flags'),
  }
}
