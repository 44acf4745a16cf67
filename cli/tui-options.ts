import type { TuiArgs } from './commands/tui.js'
import { readFastOptions } from './fast-options.js'

/**
 * The options of `tui` for cli/main.ts's fast path (node's parseArgs instead of yargs: issue 14,
 * "Start-up under a second"): the same names and types as the yargs builder in commands/tui.ts
 * (test/ui/tui-fast-path.test.ts compares them). Anything parseArgs would not read exactly as
 * yargs does (an unknown or repeated option, a positional, an empty value, --help) and every
 * combination yargs refuses (--key without --password, --url with --data, --config or --port)
 * goes to yargs instead, which answers with its own message.
 */
export const TUI_OPTIONS = {
  url: { type: 'string' },
  'control-token': { type: 'string' },
  data: { type: 'string' },
  config: { type: 'string' },
  port: { type: 'string' },
  key: { type: 'string' },
  password: { type: 'string' },
} as const

/** `tui`'s options read by node's parseArgs, or undefined when yargs should read them. */
export function tuiArgs(rest: string[]): TuiArgs | undefined {
  const v = readFastOptions(rest, TUI_OPTIONS)
  if (!v) return undefined
  if ((v.key === undefined) !== (v.password === undefined)) return undefined
  if (v.url !== undefined && (v.data !== undefined || v.config !== undefined || v.port !== undefined))
    return undefined
  return {
    ...(v.url !== undefined ? { url: v.url } : {}),
    ...(v['control-token'] !== undefined ? { 'control-token': v['control-token'] } : {}),
    ...(v.data !== undefined ? { data: v.data } : {}),
    ...(v.config !== undefined ? { config: v.config } : {}),
    ...(v.port !== undefined ? { port: Number(v.port) } : {}),
    ...(v.key !== undefined ? { key: v.key } : {}),
    ...(v.password !== undefined ? { password: v.password } : {}),
  }
}
