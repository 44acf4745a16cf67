import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { freePort } from '../../src/conformance/merchant.js'

const root = join(import.meta.dirname, '..', '..')

export const REFERENCE_KEY = 'ref-merchant'
export const REFERENCE_PASSWORD = 'ref-password-0123456789abcdef'

export interface MerchantProcess {
  baseUrl: string
  port: number
  /** Everything the process wrote on stderr (a crash shows up here). */
  stderr(): string
  alive(): boolean
  stop(): Promise<void>
}

/** Starts fixtures/merchants/reference/main.ts with one MISTAKE (or none) and waits for /health. */
export async function startMerchant(mistake = 'none'): Promise<MerchantProcess> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'fixtures', 'merchants', 'reference', 'main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        MISTAKE: mistake,
        MERCHANT_KEY: REFERENCE_KEY,
        MERCHANT_PASSWORD: REFERENCE_PASSWORD,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  const baseUrl = `http://127.0.0.1:${port}`
  // Ready when its health answers; a merchant that exits first fails with what it printed. No
  // deadline: on a loaded machine start-up takes what it takes (the test's timeout bounds it).
  for (;;) {
    if (exited) throw new Error(`merchant (${mistake}) exited: ${stderr}`)
    const ready = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) break
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    baseUrl,
    port,
    stderr: () => stderr,
    alive: () => !exited,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
