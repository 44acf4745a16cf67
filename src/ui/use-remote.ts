import { useEffect, useRef, useState } from 'react'
import { problemOf } from './ui-context.js'

export interface Remote<T> {
  data?: T
  error?: string
  loading: boolean
}

/**
 * Loads `load()` now and whenever a key in `deps` changes (the refresh tick among them). The last
 * good answer stays on screen while reloading and when a reload fails, so a sandbox that goes
 * away leaves what was last seen, with the error beside it.
 */
export function useRemote<T>(load: () => Promise<T>, deps: unknown[]): Remote<T> {
  const [state, setState] = useState<Remote<T>>({ loading: true })
  const latest = useRef(0)
  useEffect(() => {
    const call = ++latest.current
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => {
        if (call === latest.current) setState({ data, loading: false })
      },
      (error) => {
        if (call === latest.current) setState((s) => ({ ...s, error: problemOf(error), loading: false }))
      },
    )
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what reloads it
  }, deps)
  return state
}
