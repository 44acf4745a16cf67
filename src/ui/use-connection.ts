import { useEffect, useRef, useState } from 'react'
import type { ControlClient } from './client.js'
import type { ClockView } from './client-types.js'
import { type ConnectionState, followSandbox } from './connection.js'

/**
 * The link to the sandbox and what it reports: the connection state, a tick that grows on every
 * engine event (debounced, so a burst reloads once), and the sandbox clock, ticking locally
 * between reads when it runs in real time.
 */
export function useConnection(client: ControlClient, delaysMs?: number[]) {
  const [connection, setConnection] = useState<ConnectionState>({ kind: 'connecting' })
  const [tick, setTick] = useState(0)
  const [clock, setClock] = useState<ClockView & { readAt: number }>()
  const [now, setNow] = useState(Date.now())
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined)

  useEffect(() => {
    const bump = () => {
      if (pending.current) return
      pending.current = setTimeout(() => {
        pending.current = undefined
        setTick((t) => t + 1)
      }, 150)
    }
    const stop = followSandbox(client, {
      onEvent: bump,
      onState: (state) => {
        setConnection(state)
        // Back after a loss: everything on screen may be stale.
        if (state.kind === 'connected') bump()
      },
      ...(delaysMs ? { delaysMs } : {}),
    })
    const second = setInterval(() => setNow(Date.now()), 1000)
    return () => {
      stop()
      clearInterval(second)
      if (pending.current) clearTimeout(pending.current)
    }
  }, [client, delaysMs])

  useEffect(() => {
    if (tick < 0) return
    client.clock().then(
      (c) => setClock({ ...c, readAt: Date.now() }),
      () => {},
    )
  }, [client, tick])

  const shown = clock && (clock.mode === 'system' ? clock.now_ms + (now - clock.readAt) : clock.now_ms)
  return {
    connection,
    tick,
    now,
    refresh: () => setTick((t) => t + 1),
    clock: clock && shown !== undefined ? { ...clock, shown } : undefined,
  }
}
