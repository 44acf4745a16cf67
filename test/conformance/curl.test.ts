import { describe, expect, it } from 'vitest'
import { toCurl } from '../../src/conformance/curl.js'
import { reportText } from '../../src/conformance/reporters/redact.js'

// Issue 7: "each failure prints a curl command reproducing the request involved"; standards: card numbers never logged in full.
describe('reproduction commands', () => {
  it('quote the method, URL, headers and body for a shell', () => {
    expect(
      toCurl({
        method: 'POST',
        url: 'http://h/x',
        headers: { 'content-type': 'application/json', host: 'h' },
        body: `{"a":"it's"}`,
      }),
    ).toBe(`curl -sS -X POST 'http://h/x' -H 'content-type: application/json' --data-raw '{"a":"it'\\''s"}'`)
    expect(toCurl({ method: 'GET', url: 'http://h/y', headers: {}, body: '' })).toBe(
      "curl -sS -X GET 'http://h/y'",
    )
  })

  // Issue 32 point 7: a report masks every card number, the published test cards too (docs/rules.md#test-cards).
  it('mask every card number, the test cards too, and leave ids alone', () => {
    expect(reportText('card_number=5555555555554444&x=1')).toBe('card_number=555555******4444&x=1')
    expect(reportText('{"card_number":"4111111111111111"}')).toBe('{"card_number":"411111******1111"}')
    expect(reportText('trans_id=00000000-0000-4000-8000-000000000000')).toBe(
      'trans_id=00000000-0000-4000-8000-000000000000',
    )
    expect(reportText('ts=1234567890123')).toBe('ts=1234567890123')
  })
})
