import { connect, type Socket } from 'node:net'

/** How long a test waits for an answer it expects (a bound on a hang, never a timing). */
export const WAIT_MS = 15_000

export interface RawAnswer {
  /** Everything the server sent, in order (a `100 Continue` would come first). */
  text: string
  closed: boolean
}

export interface RawConnection {
  socket: Socket
  answer: RawAnswer
  /** Resolves once `test` holds for what came back (rejects after WAIT_MS). */
  until(test: (a: RawAnswer) => boolean): Promise<RawAnswer>
}

/** A raw connection: writes what it is told and collects what comes back. */
export function raw(port: number): RawConnection {
  const socket = connect(port, '127.0.0.1')
  const answer: RawAnswer = { text: '', closed: false }
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const w of waiters) w()
  }
  socket.on('data', (chunk: Buffer) => {
    answer.text += chunk.toString('utf8')
    wake()
  })
  socket.on('close', () => {
    answer.closed = true
    wake()
  })
  socket.on('error', () => {
    // A connection the server cuts may be reset.
  })
  return {
    socket,
    answer,
    until: (test) =>
      new Promise<RawAnswer>((resolve, reject) => {
        const check = () => {
          if (!test(answer)) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(answer)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no such answer within ${WAIT_MS} ms; got ${JSON.stringify(answer)}`))
        }, WAIT_MS)
        waiters.add(check)
        check()
      }),
  }
}
