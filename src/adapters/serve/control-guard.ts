import { LOOPBACK_HOSTS, splitHost } from '../../core/engine/control-guard.js'

/**
 * What serve and `sandbox.listen` know about the control API's protection before the engine
 * runs: which bound addresses stay on this machine, and the refusal to serve beyond them without
 * a control token. The guard itself is the engine's (core/engine/control-guard.ts, in gateway.handle).
 */

/** Something outside the sandbox stands in the way of starting it (port taken, no permission, no token). */
export class ServeError extends Error {
  override name = 'ServeError'
}

/** A control token must be this long at least: guessable tokens protect nothing. */
export const CONTROL_TOKEN_MIN_LENGTH = 16

/** A bound address the guard should admit: not a wildcard (0.0.0.0, ::), which names no host. */
export function boundHost(host: string | undefined): string[] {
  if (host === undefined || host === '0.0.0.0' || host === '::' || host === '') return []
  return [splitHost(host.toLowerCase())[0]]
}

/** Binding to these stays on this machine: everything else reaches other machines. */
export function isLoopbackBind(host: string): boolean {
  const name = splitHost(host.toLowerCase())[0]
  return LOOPBACK_HOSTS.includes(name) || /^127\.\d+\.\d+\.\d+$/.test(name)
}

/**
 * Issue 11 point 4: beyond loopback, `merchant-request` would hand signed captures and refunds to
 * anyone on the network, so serving there needs a control token (`serve` and `sandbox.listen`
 * alike, with the same message).
 */
export function checkControlToken(host: string, token: string | undefined): void {
  if (token !== undefined && (token.length < CONTROL_TOKEN_MIN_LENGTH || !/^[\x21-\x7e]+$/.test(token)))
    throw new ServeError(
      `the control token must be at least ${CONTROL_TOKEN_MIN_LENGTH} printable characters without spaces (e.g. openssl rand -hex 16)`,
    )
  if (token === undefined && !isLoopbackBind(host))
    throw new ServeError(
      `--host ${host} serves the control API (/sandbox/...) to other machines: protect it with --control-token TOKEN or PAYSANDBOX_CONTROL_TOKEN (at least ${CONTROL_TOKEN_MIN_LENGTH} characters, e.g. $(openssl rand -hex 16)); clients send it as X-Sandbox-Control-Token`,
    )
}
