import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createExpressApp } from '../../src/adapters/express/app.js'
import {
  createLowdbStore,
  createSeededIds,
  createVirtualClock,
  type LowdbStore,
} from '../../src/adapters/index.js'
import { assembleGateway } from '../../src/assembly.js'
import { callbacksOf } from '../../src/core/callbacks/index.js'
import type { Gateway } from '../../src/core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { CARD, configWith, tokenBody } from '../checkout/session-helpers.js'
import { recordingTransport } from '../helpers/engine.js'
import { createFaultyFiles } from './faulty-files.js'

/**
 * Issue 11, point 5: "The store survives a full disk: a failed write is a 503 for writes while
 * reads and health keep answering; writes resume when space returns; no partial files left."
 * Before: after the first ENOSPC every request, /sandbox/health included, answered 500 until restart.
 * The disk is "filled" through the store's injectable file access (faulty-files.ts).
 */
const root = mkdtempSync(join(tmpdir(), 'paysandbox-full-disk-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let n = 0

describe('a sandbox whose disk fills up (express, lowdb store)', () => {
  let store: LowdbStore<Collections>
  let gateway: Gateway
  let disk: ReturnType<typeof createFaultyFiles>
  let file: string
  let unhandled: unknown[]
  const onUnhandled = (reason: unknown) => unhandled.push(reason)
  let attempts = 0

  beforeEach(async () => {
    file = join(root, `case-${n++}`, 'data.json')
    disk = createFaultyFiles()
    store = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES, files: disk.files })
    // The merchant refuses the first callback: a retry is due a minute later (docs/rules.md#callbacks).
    const { transport } = recordingTransport(() =>
      ++attempts === 1 ? { status: 500, body: 'busy' } : { status: 200, body: 'OK' },
    )
    gateway = assembleGateway({
      store,
      clock: createVirtualClock(Date.UTC(2026, 10, 2, 10, 0, 0)),
      ids: createSeededIds('full-disk'),
      transport,
      logger: silentLogger,
      config: configWith([{ id: 'demo-mid' }]),
    })
    unhandled = []
    attempts = 0
    process.on('unhandledRejection', onUnhandled)
  })
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled)
    gateway.stop()
    disk.free()
    await store.close()
  })

  const app = () => createExpressApp(gateway, { onError: () => {} })
  /** Until no callback is being sent (the engine's own idle, no wall-clock wait). */
  const idle = () => callbacksOf(gateway.ctx).idle()

  it('answers 503 to writes, 200 to reads and a degraded health, then resumes when space returns', async () => {
    const http = request(app())
    const token = await http.post('/api/v1/session/token').send(tokenBody())
    expect(token.status).toBe(200)
    const paid = await http
      .post('/api/v1/processing/purchase/card')
      .set('Token', token.body.token as string)
      .send(CARD)
    expect(paid.status).toBe(200)
    await store.flush()
    expect(attempts).toBe(1)

    disk.fill({ partial: true })
    // The clock moves: the callback retry falls due and is sent (background writes), and the clock
    // is recorded: the disk refuses, so the answer is a 503 and the changes were undone.
    const advanced = await http.post('/sandbox/clock/advance').send({ seconds: 120 })
    expect(advanced.status).toBe(503)
    expect(advanced.body).toEqual({
      http_code: 503,
      error_code: 100000,
      error_message: 'Service temporarily unavailable.',
    })
    await idle()
    const health = await http.get('/sandbox/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'degraded', store: 'unwritable' })
    const list = await http.get('/sandbox/payments')
    expect(list.status).toBe(200)
    expect(JSON.stringify(list.body)).toContain('settled')
    expect(readdirSync(join(file, '..')).sort()).toEqual(['data.json', 'data.json.journal'])
    expect(unhandled).toEqual([])

    disk.free()
    const again = await http.post('/sandbox/clock/advance').send({ seconds: 60 })
    expect(again.status).toBe(200)
    expect((await http.get('/sandbox/health')).body).toMatchObject({ status: 'ok' })
    await idle()
    await store.flush()
    expect(store.writable).toBe(true)
    expect(unhandled).toEqual([])
  })

  it('a write refused by the disk leaves no record of it, in memory or on disk', async () => {
    const http = request(app())
    disk.fill({ partial: true })
    const token = await http.post('/api/v1/session/token').send(tokenBody())
    expect(token.status).toBe(503)
    expect(store.count('sessions')).toBe(0)
    disk.free()
    await store.close()
    const reopened = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
    expect(reopened.count('sessions')).toBe(0)
    await reopened.close()
    store = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
    expect(unhandled).toEqual([])
  })
})
