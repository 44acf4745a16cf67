import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runReplay } from '../../src/replay/index.js'
import type { FreshSandbox } from '../../src/replay/sandbox.js'
import { type Capture, tempCapture, temps } from './captures.js'

/**
 * Issue 34, done when: "Bad input (not JSON, a HAR without entries, an unknown host, a truncated
 * log) gets a clear error naming the file and the entry, and changes nothing"; and privacy: "card
 * numbers masked and CVVs, passwords and tokens removed in every output, whatever the input held".
 */

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'replay')
const CONFIG = join(fixtures, 'shop-config.json')
const JSONL = readFileSync(join(fixtures, 'shop-client.jsonl'), 'utf8')
const HAR = () => JSON.parse(readFileSync(join(fixtures, 'checkout-s2s.har'), 'utf8')) as Capture

const sandboxes: FreshSandbox[] = []
afterEach(() => {
  for (const s of sandboxes.splice(0)) s.stop()
  temps.clean()
})

/** The replay's refusal, or a failure of the test when it replays anything. */
async function refusal(file: string, options: { gateway?: string; config?: string } = {}): Promise<string> {
  try {
    const { sandbox } = await runReplay({ files: [file], config: options.config ?? CONFIG, ...options })
    sandboxes.push(sandbox)
  } catch (error) {
    expect((error as Error).name).toBe('ReplayInputError')
    return (error as Error).message
  }
  throw new Error(`${file} was replayed; a refusal was expected`)
}

describe('bad input: a clear error naming the file and the entry, before anything is sent', () => {
  it('a file that is not JSON', async () => {
    const file = tempCapture('notes.har', 'GET /api/v1/session HTTP/1.1\nHost: gw\n')
    expect(await refusal(file)).toBe(
      `${file}: not JSON (a HAR 1.2 file or a JSON-lines log expected): Unexpected token 'G', "GET /api/v"... is not valid JSON`,
    )
  })

  it('a HAR without entries, and a HAR entry without a URL', async () => {
    const empty = tempCapture('empty.har', { log: { version: '1.2', creator: { name: 'x' }, entries: [] } })
    expect(await refusal(empty)).toBe(
      `${empty}: a HAR with no entries (log.entries is empty): nothing to replay`,
    )
    const doc = HAR()
    ;(doc.log.entries[2] as { request: { url: unknown } }).request.url = '/api/v1/session'
    const broken = tempCapture('broken.har', doc)
    expect(await refusal(broken)).toBe(
      `${broken}, entry 3: request.url is not an absolute URL: "/api/v1/session"`,
    )
  })

  it('a truncated HAR and a truncated log name where they end', async () => {
    const har = readFileSync(join(fixtures, 'checkout-s2s.har'), 'utf8')
    const cut = tempCapture('cut.har', har.slice(0, 5000))
    expect(await refusal(cut)).toMatch(
      new RegExp(`^${cut}: not JSON .*\\(the file ends early: truncated\\?\\)$`),
    )
    const lines = JSONL.split('\n')
    const text = `${lines.slice(0, 2).join('\n')}\n${(lines[2] as string).slice(0, 120)}`
    const log = tempCapture('cut.jsonl', text)
    expect(await refusal(log)).toMatch(
      new RegExp(
        `^${log}, line 3: not complete JSON: the log ends in the middle of this line \\(truncated\\?\\)`,
      ),
    )
    // A line broken in the middle of the file is not taken for a cut end.
    const middle = tempCapture('middle.jsonl', `${lines[0]}\n{"method": "POST",\n${lines[1]}\n`)
    expect(await refusal(middle)).toMatch(
      new RegExp(`^${middle}, line 2: not JSON \\(one JSON object per line expected\\)`),
    )
  })

  it('an unknown host: a log line to another host, a gateway request to another host than --gateway', async () => {
    const lines = JSONL.trim().split('\n')
    const other = (lines[1] as string).replace('http://127.0.0.1:27080', 'https://api.another-psp.example')
    const log = tempCapture('hosts.jsonl', `${lines[0]}\n${other}\n`)
    expect(await refusal(log)).toBe(
      `${log}, line 2: requests go to more than one gateway (http://127.0.0.1:27080 from line 1, https://api.another-psp.example from line 2): name the one to replay with --gateway URL`,
    )
    // Named, the gateway is that one, and the line to the other host is refused by its number.
    expect(await refusal(log, { gateway: 'http://127.0.0.1:27080' })).toBe(
      `${log}, line 2: POST https://api.another-psp.example/post goes to a host that is not the gateway (http://127.0.0.1:27080): a merchant's gateway log holds its requests to the gateway only; name the gateway with --gateway URL if it is this one`,
    )
    const shopPage = (lines[1] as string).replace(
      'http://127.0.0.1:27080/post',
      'https://shop.example/orders/1',
    )
    const withPage = tempCapture('page.jsonl', `${lines[0]}\n${shopPage}\n`)
    expect(await refusal(withPage)).toMatch(
      /, line 2: POST https:\/\/shop\.example\/orders\/1 goes to a host that is not the gateway/,
    )
    const har = tempCapture('hosts.har', HAR())
    expect(await refusal(har, { gateway: 'https://gateway.example' })).toBe(
      `${har}, entry 3: POST http://127.0.0.1:27080/api/v1/session goes to a host that is not the gateway (https://gateway.example) though its path is a gateway endpoint; name the gateway with --gateway URL if it is this one`,
    )
  })

  it('a merchant the configuration does not have: its password is never taken from the file', async () => {
    const log = tempCapture('shop.jsonl', JSONL)
    expect(
      await refusal(log, {
        config: join(import.meta.dirname, '..', '..', 'fixtures', 'config', 'demo.json'),
      }),
    ).toBe(
      `${log}, line 1: merchant "shop-key" is not a merchant of the configuration: give its key and password with --config FILE (the replay signs with the configuration's passwords, never with anything in the capture)`,
    )
  })
})

describe('privacy: every output redacted, whatever the input held', () => {
  it('masks a full card number and leaves out the CVV and tokens of an unredacted capture', async () => {
    const doc = HAR()
    // What a raw browser capture holds: the card as typed, its CVV, a cookie.
    for (const e of doc.log.entries) {
      if (e.request.url.endsWith('/pay') && e.request.postData?.text)
        e.request.postData.text = e.request.postData.text
          .replace('card_number=411111******1111', 'card_number=4111+1111+1111+1111')
          .concat('&card_cvv2=737')
      e.request.headers.push({ name: 'Cookie', value: 'session=s3cr3t-cookie-value' })
    }
    const { report, sandbox } = await runReplay({ files: [tempCapture('raw.har', doc)], config: CONFIG })
    sandboxes.push(sandbox)
    expect(report.differences).toBe(0)
    const out = JSON.stringify(report)
    expect(out).not.toMatch(/4111111111111111|4111 1111 1111 1111|4111\+1111/)
    expect(out).not.toMatch(/card_cvv2=737|"737"/)
    expect(out).not.toContain('s3cr3t-cookie-value')
    expect(out).not.toContain('shop-password')
    // No token the fresh sandbox made appears: its pages are shown with the token removed.
    const tokens = sandbox.gateway.ctx.store.list('sessions').flatMap((s) => [s.token, s.page_token])
    expect(tokens.length).toBeGreaterThan(0)
    for (const token of tokens) expect(out).not.toContain(token)
  })
})
