import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { createTestGateway } from '../helpers/engine.js'

/**
 * The `api-over-http` project runs the API suites through express; test files share their
 * worker's modules (vitest `isolate: false`), so the transport is read at each gateway's creation.
 * This checks that each file of each project really uses its own: an answer that came over HTTP
 * carries HTTP/1.1's `connection` header, an in-process one does not, and the caller's address
 * differs.
 */
describe('the transport of the API suites follows the vitest project', () => {
  it('in-process for unit, through express for api-over-http', async ({ task }) => {
    const t = createTestGateway(DEFAULT_MODULES)
    const answer = await t.call('GET', '/sandbox/health')
    expect(answer.status).toBe(200)
    if (task.file.projectName === 'api-over-http') {
      expect(t.callerIp).toBe('127.0.0.1')
      expect(answer.headers).toHaveProperty('connection')
    } else {
      expect(t.callerIp).toBe('203.0.113.7')
      expect(answer.headers).not.toHaveProperty('connection')
    }
  })
})
