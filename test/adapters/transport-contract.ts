import { describe, expect, it } from 'vitest'
import { isTimeout } from '../../src/core/callbacks/attempt.js'
import type { Transport } from '../../src/core/ports/transport.js'

/** What the merchant's endpoint does with a callback, whatever carries it there. */
export type MerchantBehaviour =
  | { kind: 'answer'; status: number; body: string }
  | { kind: 'hang' }
  | { kind: 'fail' }

export interface Received {
  method: string
  contentType: string | undefined
  body: string
}

export interface TransportRig {
  transport: Transport
  url: string
  received: Received[]
  close(): Promise<void>
}

/**
 * The transport port's contract (design rule: "each port has one contract test suite that every
 * implementation must pass"; issue 11 point 6): run against the fetch transport (a real HTTP
 * endpoint on loopback) and the in-process transport (a handler function).
 */
export function transportContract(
  name: string,
  start: (merchant: MerchantBehaviour) => Promise<TransportRig>,
) {
  const send = (rig: TransportRig, timeoutMs = 2000) =>
    rig.transport.send({
      url: rig.url,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: 'order_number=o-1&status=success&customer_name=J%C3%BCrgen+M',
      timeoutMs,
    })

  describe(`transport contract: ${name}`, () => {
    it('delivers a POST with its content type and body byte for byte, and returns the answer', async () => {
      const rig = await start({ kind: 'answer', status: 200, body: 'OK' })
      try {
        expect(await send(rig)).toEqual({ status: 200, body: 'OK' })
        expect(rig.received).toEqual([
          {
            method: 'POST',
            contentType: 'application/x-www-form-urlencoded; charset=utf-8',
            body: 'order_number=o-1&status=success&customer_name=J%C3%BCrgen+M',
          },
        ])
      } finally {
        await rig.close()
      }
    })

    it('returns a refusal as the merchant gave it (status and body), without judging it', async () => {
      const rig = await start({ kind: 'answer', status: 500, body: 'nope' })
      try {
        expect(await send(rig)).toEqual({ status: 500, body: 'nope' })
      } finally {
        await rig.close()
      }
    })

    it('keeps at most 64 KiB of an answer', async () => {
      const rig = await start({ kind: 'answer', status: 200, body: 'x'.repeat(200_000) })
      try {
        const answer = await send(rig)
        expect(answer.body.length).toBe(64 * 1024)
      } finally {
        await rig.close()
      }
    })

    it('rejects with a TimeoutError when the merchant does not answer within timeoutMs', async () => {
      const rig = await start({ kind: 'hang' })
      try {
        const error = await send(rig, 100).then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(isTimeout(error)).toBe(true)
      } finally {
        await rig.close()
      }
    })

    it('rejects, not as a time-out, when the merchant cannot be reached', async () => {
      const rig = await start({ kind: 'fail' })
      try {
        const error = await send(rig).then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(error).toBeInstanceOf(Error)
        expect(isTimeout(error)).toBe(false)
      } finally {
        await rig.close()
      }
    })
  })
}
