import type { ServeArgs } from './commands/serve.js'
import { type OptionSpec, readFastOptions } from './fast-options.js'

/**
 * The options of `serve`, declared once: the yargs builder in commands/serve.ts takes this table,
 * and cli/main.ts's fast path reads it with node's parseArgs instead of loading yargs (about a
 * quarter of `serve`'s start-up, README "Build"). test/cli/serve-fast-path.test.ts checks that
 * both read the same words alike; anything parseArgs would not read exactly as yargs does (an
 * unknown or repeated option, `--no-strict`, a positional, an empty value) goes to yargs instead.
 */
export const SERVE_OPTIONS = {
  port: {
    // A string, checked by choosePort: yargs would turn `--port abc` into NaN.
    type: 'string',
    describe: 'Port to listen on (default: $PORT, else 8080; 0 picks a free one)',
  },
  host: {
    type: 'string',
    default: '127.0.0.1',
    describe: 'Address to listen on (0.0.0.0 to accept other machines, e.g. in a container)',
  },
  config: {
    type: 'string',
    describe: 'Configuration file (merchants, MIDs, clock); default: the built-in demo merchant',
  },
  data: {
    type: 'string',
    describe:
      'Keep sessions, payments and callbacks in this file across restarts (default: memory); its directory must exist',
  },
  'control-token': {
    type: 'string',
    describe:
      'Control API (/sandbox/...) callers must send it as X-Sandbox-Control-Token (default: $PAYSANDBOX_CONTROL_TOKEN); required with a --host beyond loopback',
  },
  'allow-host': {
    type: 'string',
    array: true,
    describe: 'Another host name the control API answers under (guard against DNS rebinding); repeatable',
  },
  retain: {
    type: 'number',
    describe:
      "Each merchant keeps at most N payments and sessions, its oldest forgotten first whatever their state (default 10000 in memory; with --data no bound unless given); the demo page's are bounded apart (limits.retain_demo)",
  },
  'base-path': {
    type: 'string',
    describe:
      'Serve every route under this prefix, as white-label deployments do (e.g. /payment: /payment/post, /payment/api/v1/session)',
  },
  strict: {
    type: 'boolean',
    describe:
      'Refuse what the platform documents differently instead of serving it with a Sandbox-Warning header (docs/rules.md#warnings-and-releases)',
  },
  'check-responses': {
    type: 'boolean',
    describe:
      'Check every answer against its response schema at run time: a mismatch is logged and counted in /sandbox/health, the answer is sent unchanged',
  },
  'headers-timeout': {
    type: 'number',
    describe:
      'Seconds a client has to send a request head; after it, 408 and the connection closed (default 10)',
  },
  'request-timeout': {
    type: 'number',
    describe:
      'Seconds a client has to send a whole request, head and body (default 30; an event stream stays open)',
  },
  'body-timeout': {
    type: 'number',
    describe: 'Seconds without a body byte before a request is answered 408 (default 10)',
  },
  'max-connections': {
    type: 'number',
    describe:
      'Open connections at most; at the cap the idlest is closed to make room, else the reserve serves (default 1024)',
  },
  'reserve-connections': {
    type: 'number',
    describe:
      'Connections kept beyond --max-connections for health, the control API and the payer pages (default 64)',
  },
  'max-event-streams': {
    type: 'number',
    describe: 'Event streams (/sandbox/events) open at most; more are refused 503 (default 128)',
  },
  'max-event-streams-per-client': {
    type: 'number',
    describe: 'Event streams open at most from one address; more are refused 429 (default 32)',
  },
  'stream-drain-timeout': {
    type: 'number',
    describe: 'Seconds an event stream reader has to take what was written before it is let go (default 30)',
  },
} as const satisfies Record<string, OptionSpec>

/** `serve`'s options read by node's parseArgs, or undefined when yargs should read them. */
export function serveArgs(rest: string[]): ServeArgs | undefined {
  const v = readFastOptions(rest, SERVE_OPTIONS)
  if (!v) return undefined
  return {
    host: v.host ?? SERVE_OPTIONS.host.default,
    ...(v.port !== undefined ? { port: v.port } : {}),
    ...(v.config !== undefined ? { config: v.config } : {}),
    ...(v.data !== undefined ? { data: v.data } : {}),
    ...(v['control-token'] !== undefined ? { 'control-token': v['control-token'] } : {}),
    ...(v['allow-host'] !== undefined ? { 'allow-host': v['allow-host'] } : {}),
    ...(v.retain !== undefined ? { retain: Number(v.retain) } : {}),
    ...(v['base-path'] !== undefined ? { 'base-path': v['base-path'] } : {}),
    ...(v.strict !== undefined ? { strict: v.strict } : {}),
    ...(v['check-responses'] !== undefined ? { 'check-responses': v['check-responses'] } : {}),
    ...(v['headers-timeout'] !== undefined ? { 'headers-timeout': Number(v['headers-timeout']) } : {}),
    ...(v['request-timeout'] !== undefined ? { 'request-timeout': Number(v['request-timeout']) } : {}),
    ...(v['body-timeout'] !== undefined ? { 'body-timeout': Number(v['body-timeout']) } : {}),
    ...(v['max-connections'] !== undefined ? { 'max-connections': Number(v['max-connections']) } : {}),
    ...(v['reserve-connections'] !== undefined
      ? { 'reserve-connections': Number(v['reserve-connections']) }
      : {}),
    ...(v['max-event-streams'] !== undefined ? { 'max-event-streams': Number(v['max-event-streams']) } : {}),
    ...(v['max-event-streams-per-client'] !== undefined
      ? { 'max-event-streams-per-client': Number(v['max-event-streams-per-client']) }
      : {}),
    ...(v['stream-drain-timeout'] !== undefined
      ? { 'stream-drain-timeout': Number(v['stream-drain-timeout']) }
      : {}),
  }
}
