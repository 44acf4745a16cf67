import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { EXIT, UsageError } from './exit-codes.js'
import { serveArgs } from './serve-options.js'
import { NO_COMMAND, packageVersion } from './version.js'
import { tuiArgs } from './tui-options.js'

/**
 * The `paysandbox` command. Start-up matters (`--help` within 2x of a bare `node`, `validate`
 * within 3x, issue 15), so the commonest calls are answered here without yargs:
 *   --help, -h, <command> --help   the help yargs renders, saved by the build (help.json beside this)
 *   --version                      package.json's version
 *   validate <kind> <file|-> [--json]
 *   serve [options]                options read by node's parseArgs (serveArgs below)
 *   tui [options]                  the same for the console (tuiArgs, cli/tui-options.ts)
 * Everything else, and every call in a terminal whose width the build did not render, goes
 * through yargs (cli/cli.ts). Each command imports what it runs (the engine, express, ink) itself.
 */
const argv = process.argv.slice(2)

/** `{ "<width>": { "": root help, "<command>": its help } }`, written by scripts/build.mjs. */
function savedHelp(command: string): string | undefined {
  const file = join(import.meta.dirname, 'help.json')
  if (!existsSync(file)) return undefined
  const width = String(Math.min(110, process.stdout.columns || 100))
  const help = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>
  return help[width]?.[command]
}

function usageError(message: string): never {
  console.error(`${message}\nRun with --help for usage.`)
  process.exit(EXIT.USAGE)
}

async function fastPath(): Promise<boolean> {
  const [first, second] = argv
  if (argv.length === 1 && first === '--version') {
    console.log(packageVersion())
    return true
  }
  const isHelp = (a: string | undefined) => a === '--help' || a === '-h'
  if (argv.length === 0 || (argv.length === 1 && isHelp(first))) {
    const help = savedHelp('')
    if (help === undefined) return false
    if (argv.length === 1) {
      console.log(help)
      return true
    }
    console.error(`${help}\n`)
    usageError(NO_COMMAND)
  }
  if (argv.length === 2 && first && isHelp(second)) {
    const help = savedHelp(first)
    if (help === undefined) return false
    console.log(help)
    return true
  }
  const positional = argv.filter((a) => a !== '--json')
  if (
    first === 'validate' &&
    positional.length === 3 &&
    argv.length - positional.length <= 1 &&
    positional.every((a, i) => !a.startsWith('-') || (i === 2 && a === '-'))
  ) {
    const { runValidate } = await import('./commands/validate.js')
    try {
      await runValidate({
        kind: positional[1] as string,
        file: positional[2] as string,
        json: argv.includes('--json'),
      })
    } catch (error) {
      if (error instanceof UsageError) usageError(error.message)
      throw error
    }
    return true
  }
  if (first === 'tui') {
    const args = tuiArgs(argv.slice(1))
    if (!args) return false
    const { runTuiCommand } = await import('./commands/tui.js')
    try {
      await runTuiCommand(args)
    } catch (error) {
      if (error instanceof UsageError) usageError(error.message)
      throw error
    }
    return true
  }
  if (first === 'serve') {
    const args = serveArgs(argv.slice(1))
    if (!args) return false
    const { runServe } = await import('./commands/serve.js')
    try {
      await runServe(args)
    } catch (error) {
      if (error instanceof UsageError) usageError(error.message)
      throw error
    }
    return true
  }
  return false
}

if (!(await fastPath())) {
  const { runCli } = await import('./cli.js')
  await runCli(argv)
}
