import type { TuiArgs } from './commands/tui.js'
import { type OptionSpec, readFastOptions } from './fast-options.js'

/**
 * The options of `tui`, declared once: the yargs builder in commands/tui.ts takes this table, and
 * cli/main.ts's fast path reads it with node's parseArgs instead of loading yargs (issue 14,
 * "Start-up under a second"; test/ui/tui-fast-path.test.ts checks both read the same words
 * alike). Anything parseArgs would not read exactly as yargs does (an unknown or repeated option,
 * a positional, an empty value, --help) and every
 * combination yargs refuses (--key without --password, --url with --data, --config or --port)
 * goes to yargs instead, which answers with its own message.
 */
export const TUI_OPTIONS = {
  url: { type: 'string', describe: 'A running sandbox, e.g. http://localhost:8080' },
  'control-token': {
    type: 'string',
    describe:
      'The control token of a sandbox served with --control-token (default: $PAYSANDBOX_CONTROL_TOKEN)',
  },
  data: {
    type: 'string',
    describe: 'Open a recorded sandbox: the data file of `serve --data FILE`',
  },
  config: {
    type: 'string',
    describe: 'Merchants for --data or the embedded sandbox (default: the demo merchant)',
  },
  port: {
    type: 'number',
    describe: 'Port of the --data or embedded sandbox (default: a free one)',
  },
  key: {
    type: 'string',
    describe: 'Merchant key scenario runs act as (with --url; default: the demo merchant)',
  },
  password: {
    type: 'string',
    describe: "That merchant's password (the control API never reveals one)",
  },
} as const satisfies Record<string, OptionSpec>

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
