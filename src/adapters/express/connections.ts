import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionUsage } from '../../core/engine/http.js'

/**
 * What a connection is doing: `fresh` has not sent a (complete) request head yet, `busy` is being
 * answered, `idle` is a keep-alive connection between requests, `stream` holds an event stream.
 */
type State = 'fresh' | 'busy' | 'idle' | 'stream'

interface Connection {
  socket: Socket
  state: State
  /** Admitted beyond the cap: served health, control and payer pages only, then closed. */
  onReserve: boolean
  /** No longer counted (closed, or being closed to make room). */
  gone: boolean
  manager: ConnectionManager
}

export interface ConnectionLimits {
  maxConnections: number
  reserveConnections: number
}

export interface ConnectionManager {
  usage(): ConnectionUsage
}

const connections = new WeakMap<Socket, Connection>()

/** The connection's standing, for the request the adapter hands to the engine. */
export function connectionOf(
  socket: Socket | null | undefined,
): { onReserve: boolean; usage: () => ConnectionUsage } | undefined {
  const connection = socket ? connections.get(socket) : undefined
  return connection && { onReserve: connection.onReserve, usage: connection.manager.usage }
}

/** The connection now holds an event stream: it is neither idle nor closed to make room. */
export function holdsStream(socket: Socket | null | undefined): void {
  const connection = socket ? connections.get(socket) : undefined
  if (connection && !connection.gone) connection.state = 'stream'
}

/**
 * docs/rules.md#connections, what only the socket layer can do: the server's connections, counted
 * and kept under `maxConnections` as a mature server does. A connection that arrives at the cap
 * makes room by closing the idlest: the keep-alive connection idle the longest, else the oldest
 * that has not sent a request head. When every connection is working (answered, or holding an
 * event stream, whose number the engine caps), it is admitted on a reserve of
 * `reserveConnections` beyond the cap, whose requests the engine serves only for health, the control
 * API and the payer pages (`IncomingRequest.onReserve`, core/engine/reserve.ts), each closed after
 * its answer; with the reserve full too (its oldest silent connection closed first), `refuse`
 * answers it (503 SANDBOX_CONNECTIONS_FULL) and closes it.
 */
export function manageConnections(
  server: Server,
  limits: ConnectionLimits,
  refuse: (socket: Socket) => void,
): ConnectionManager {
  // In order of age (fresh) and of the time they became idle (idle): the first is the one to close.
  const fresh = new Set<Connection>()
  const idle = new Set<Connection>()
  const reserveFresh = new Set<Connection>()
  let ordinary = 0
  let onReserve = 0
  let shed = 0
  let refused = 0

  const manager: ConnectionManager = {
    usage: () => ({
      open: ordinary + onReserve,
      max: limits.maxConnections,
      reserve: limits.reserveConnections,
      on_reserve: onReserve,
      shed,
      refused,
    }),
  }

  const leave = (c: Connection) => {
    if (c.gone) return
    c.gone = true
    fresh.delete(c)
    idle.delete(c)
    reserveFresh.delete(c)
    if (c.onReserve) onReserve--
    else ordinary--
  }

  const settle = (c: Connection, state: State) => {
    fresh.delete(c)
    idle.delete(c)
    reserveFresh.delete(c)
    c.state = state
    if (state === 'idle') idle.add(c)
  }

  /** Closes the first connection of `set` to make room; false when there is none. */
  const shedOne = (set: Set<Connection>) => {
    const victim = set.values().next().value
    if (!victim) return false
    leave(victim)
    shed++
    victim.socket.destroy()
    return true
  }

  server.on('connection', (socket: Socket) => {
    const c: Connection = { socket, state: 'fresh', onReserve: false, gone: false, manager }
    if (ordinary >= limits.maxConnections && !shedOne(idle) && !shedOne(fresh)) {
      if (onReserve >= limits.reserveConnections && !shedOne(reserveFresh)) {
        refused++
        refusedSockets.add(socket)
        return refuse(socket)
      }
      c.onReserve = true
    }
    if (c.onReserve) {
      onReserve++
      reserveFresh.add(c)
    } else {
      ordinary++
      fresh.add(c)
    }
    connections.set(socket, c)
    socket.once('close', () => leave(c))
  })

  // Before the application's listener, so that it reads the connection's standing as set here.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const c = connections.get(req.socket)
    if (!c || c.gone) return
    settle(c, 'busy')
    // A reserve place serves one request: the next one may need it more.
    if (c.onReserve) res.setHeader('connection', 'close')
    res.once('finish', () => {
      if (!c.gone && !c.onReserve && !req.socket.destroyed) settle(c, 'idle')
    })
  })

  return manager
}

/** Refused connections: the refusal was written on them, nothing else may answer. */
const refusedSockets = new WeakSet<Socket>()

export const wasRefused = (socket: Socket | null | undefined): boolean =>
  socket ? refusedSockets.has(socket) : false
