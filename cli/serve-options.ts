import type { ServeArgs } from './commands/serve.js'
import { readFastOptions } from './fast-options.js'

/**
 * The options of `serve` for cli/main.ts's fast path (node's parseArgs instead of yargs, about a
 * seventh of start-up): the same names and types as the yargs builder in commands/serve.ts
 * (test/cli/serve-fast-path.test.ts compares them). Anything parseArgs would not read exactly as
 * yargs does (an unknown or repeated option, `--no-strict`, a positional, an empty value) goes to
 * yargs instead.
 */
export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  data: { type: 'string' },
  'control-token': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  retain: { type: 'string' },
  'base-path': { type: 'string' },
  strict: { type: 'boolean' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'body-timeout': { type: 'string' },
  'max-connections': { type: 'string' },
} as const

/** The options yargs reads as numbers (parseArgs reads them as strings, turned into numbers below). */
export const NUMBER_OPTIONS: readonly string[] = [
  'retain',
  'headers-timeout',
  'request-timeout',
  'body-timeout',
  'max-connections',
]

/** `serve`'s options read by node's parseArgs, or undefined when yargs should read them. */
export function serveArgs(rest: string[]): ServeArgs | undefined {
  const v = readFastOptions(rest, SERVE_OPTIONS)
  if (!v) return undefined
  return {
    host: v.host ?? '127.0.0.1',
    ...(v.port !== undefined ? { port: v.port } : {}),
    ...(v.config !== undefined ? { config: v.config } : {}),
    ...(v.data !== undefined ? { data: v.data } : {}),
    ...(v['control-token'] !== undefined ? { 'control-token': v['control-token'] } : {}),
    ...(v['allow-host'] !== undefined ? { 'allow-host': v['allow-host'] } : {}),
    ...(v.retain !== undefined ? { retain: Number(v.retain) } : {}),
    ...(v['base-path'] !== undefined ? { 'base-path': v['base-path'] } : {}),
    ...(v.strict !== undefined ? { strict: v.strict } : {}),
    ...(v['headers-timeout'] !== undefined ? { 'headers-timeout': Number(v['headers-timeout']) } : {}),
    ...(v['request-timeout'] !== undefined ? { 'request-timeout': Number(v['request-timeout']) } : {}),
    ...(v['body-timeout'] !== undefined ? { 'body-timeout': Number(v['body-timeout']) } : {}),
    ...(v['max-connections'] !== undefined ? { 'max-connections': Number(v['max-connections']) } : {}),
  }
}
