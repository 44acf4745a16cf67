import { spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import type { Sample } from './lib.js'

/**
 * Issue 21 point 5: "health answers within its usual time while 600 slow clients are connected".
 * `paysandbox serve` (its own process, default limits) answers GET /sandbox/health one request
 * at a time, first alone, then while 600 clients hold connections open and trickle header lines
 * (never finishing their heads, within the header time-out). Target: the median at most 2x.
 */
const SLOW = 600
const PROBES = 300
const serversFile = join(fileURLToPath(import.meta.url), '..', 'http-servers.ts')

async function startSandbox(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', serversFile, '--serve', 'sandbox'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /PORT (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)))
  })
  return { port, stop: () => child.kill('SIGTERM') }
}

/** One health request on a fresh connection, timed from connect to the last byte. */
function probe(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes('\r\n\r\n') && text.endsWith('}')) {
        socket.destroy()
        resolve(performance.now() - started)
      }
    })
    socket.on('error', reject)
    socket.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
  })
}

async function sample(name: string, port: number): Promise<Sample> {
  const times: number[] = []
  for (let i = 0; i < PROBES; i++) times.push(await probe(port))
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  return { name, runs: PROBES, medianMs: at(0.5), p90Ms: at(0.9) }
}

export async function benchSlowClients(): Promise<{ rows: Sample[]; summary: string }> {
  const sandbox = await startSandbox()
  const slow: Socket[] = []
  let trickle: ReturnType<typeof setInterval> | undefined
  try {
    await sample('warm-up', sandbox.port)
    const quiet = await sample('health, alone', sandbox.port)
    for (let i = 0; i < SLOW; i++) {
      const socket = connect(sandbox.port, '127.0.0.1')
      socket.on('error', () => {})
      socket.write('GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
      slow.push(socket)
    }
    let n = 0
    trickle = setInterval(() => {
      for (const socket of slow) if (!socket.destroyed) socket.write(`X-Slow-${n}: 1\r\n`)
      n++
    }, 500)
    const busy = await sample(`health, ${SLOW} slow clients`, sandbox.port)
    const open = slow.filter((s) => !s.destroyed).length
    const ratio = busy.medianMs / quiet.medianMs
    return {
      rows: [quiet, busy],
      summary: `health median with ${open} slow clients connected ${busy.medianMs.toFixed(2)} ms vs ${quiet.medianMs.toFixed(2)} ms alone = ${ratio.toFixed(2)}x (target <= 2x)`,
    }
  } finally {
    if (trickle) clearInterval(trickle)
    for (const socket of slow) socket.destroy()
    sandbox.stop()
  }
}
