import { execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

/**
 * The browser for the page tests and the screenshots: Debian's chromium driven by
 * playwright-core (never a downloaded browser). Found at PAYSANDBOX_CHROMIUM, /usr/bin/chromium
 * or on the PATH; on a Debian-like machine where we run as root it is installed once with apt-get
 * (what .ci/run does too); anywhere else the error says what to install.
 */
export const CHROMIUM_HELP =
  'Chromium is needed for the browser tests and was not found. Install it with ' +
  '`sudo apt-get install -y chromium` (Debian/Ubuntu), or point PAYSANDBOX_CHROMIUM at a ' +
  'Chrome or Chromium executable (macOS: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome").'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

function onPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' })
  const path = found.stdout.trim()
  return found.status === 0 && path ? path : undefined
}

function locate(): string | undefined {
  const given = process.env.PAYSANDBOX_CHROMIUM
  if (given) {
    if (!existsSync(given)) throw new Error(`PAYSANDBOX_CHROMIUM=${given} does not exist. ${CHROMIUM_HELP}`)
    return given
  }
  return CANDIDATES.find((p) => existsSync(p)) ?? onPath('chromium') ?? onPath('chromium-browser')
}

/** apt-get as root, once even when several test files ask at the same time (a directory lock). */
function installWithApt(): void {
  const canInstall = process.getuid?.() === 0 && onPath('apt-get') !== undefined
  if (!canInstall) return
  const lock = join(tmpdir(), 'paysandbox-chromium-install.lock')
  const deadline = Date.now() + 300_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (locate() || Date.now() > deadline) return
      execFileSync('sleep', ['1'])
    }
  }
  try {
    if (!locate()) {
      process.stderr.write(
        'paysandbox: installing chromium with apt-get for the browser tests (about 30 s)\n',
      )
      execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], {
        stdio: 'inherit',
      })
    }
  } catch (error) {
    process.stderr.write(`paysandbox: apt-get could not install chromium: ${(error as Error).message}\n`)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** The browser's path, installing it where we can; throws the help text where we cannot. */
export function chromiumPath(): string {
  let path = locate()
  if (!path) {
    installWithApt()
    path = locate()
  }
  if (!path) throw new Error(CHROMIUM_HELP)
  return path
}

/**
 * The flags that keep Debian's chromium quiet and self-contained in a container. The last three
 * keep every page of the browser in one renderer process instead of starting one per page (the
 * tests open about 150 pages, one at a time; none depends on process isolation): the browser
 * files' CPU went from 150 to 123 s (`npx vitest run test/e2e/`, each run alone on a 2-core machine).
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--renderer-process-limit=1',
  '--disable-site-isolation-trials',
  '--process-per-site',
]

export interface Browser {
  context: BrowserContext
  close(): Promise<void>
}

/**
 * Test files running browsers at once, across every vitest worker: one per two CPUs (one on a
 * 2-core CI machine); the browsers of one file share its slot. A slot is a symbolic link under the
 * temporary directory naming the process that took it (pid and start time); a slot whose process
 * is gone is taken over. Waiting for a slot polls; nothing depends on how long it takes.
 */
const SLOTS = Math.max(1, Math.floor(availableParallelism() / 2))

/**
 * When process `pid` started (Linux: /proc/PID/stat, field 22), so that a pid reused by another
 * process after a run was killed (in a container pids repeat from one run to the next) is not taken
 * for the slot's holder; '' where there is no /proc.
 */
function startOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? ''
  } catch {
    return ''
  }
}

/** The holder as written in a slot: `pid start`. */
const holder = () => `${process.pid} ${startOf(process.pid)}`

function alive(owner: string): boolean {
  const [pidText = '', start = ''] = owner.trim().split(' ')
  const pid = Number(pidText)
  if (!pid) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return !start || startOf(pid) === '' || startOf(pid) === start
}

/** This test file's slot, shared by every browser the file opens (a test may open a second one). */
let mine: { users: number; release: () => void } | undefined

export async function takeSlot(): Promise<() => void> {
  if (!mine) mine = { users: 0, release: await takeFreeSlot() }
  const slot = mine
  slot.users++
  let released = false
  return () => {
    if (released) return
    released = true
    if (--slot.users === 0) {
      slot.release()
      if (mine === slot) mine = undefined
    }
  }
}

async function takeFreeSlot(): Promise<() => void> {
  for (;;) {
    for (let n = 0; n < SLOTS; n++) {
      // A slot is a symbolic link whose target names its holder: made and read in one step each, so
      // a waiter never sees a slot half made, and never makes anything while it looks (an earlier
      // directory-and-pid-file slot could be left empty forever when a waiter's read created the
      // file the holder had just removed: every later run then waited on it).
      const link = join(tmpdir(), `paysandbox-browser-slot-${n}.lock`)
      try {
        symlinkSync(holder(), link)
        return () => {
          try {
            if (readlinkSync(link) === holder()) unlinkSync(link)
          } catch {
            // already gone (taken over)
          }
        }
      } catch {
        let owner: string
        try {
          owner = readlinkSync(link)
        } catch {
          continue // released meanwhile: try again at once
        }
        if (alive(owner)) continue
        // Its holder is gone (killed): take it over.
        try {
          unlinkSync(link)
        } catch {
          // another waiter took it over first
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A fresh profile each time, so no test sees another's cookies or cache. */
export async function launchBrowser(
  options: { locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<Browser> {
  const release = await takeSlot()
  const profile = mkdtempSync(join(tmpdir(), 'paysandbox-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      args: ARGS,
      locale: options.locale ?? 'en-US',
      ...(options.javaScriptEnabled === false ? { javaScriptEnabled: false } : {}),
    })
  } catch (error) {
    release()
    throw error
  }
  // Generous bounds for a loaded machine: waits end as soon as the page is there.
  context.setDefaultTimeout(60_000)
  context.setDefaultNavigationTimeout(60_000)
  return {
    context,
    async close() {
      try {
        await context.close()
      } finally {
        rmSync(profile, { recursive: true, force: true })
        release()
      }
    },
  }
}
