import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import { forMode } from '../../src/conformance/runner.js'
import type { LoadedScenario, RunSummary, StepResult } from '../../src/conformance/types.js'
import { compileReferenceMerchant } from './compiled-reference.js'
import { adapterNames, merchantRuns } from './merchant-runs.js'

/**
 * docs/conformance.md, Broken twins: "The test suite proves the reference passes every merchant
 * scenario and each twin fails at least one, with a message naming what is wrong and the interface
 * section that says so." Each merchant process starts once and runs its scenarios in parallel
 * through the runner: the reference every merchant scenario, each twin the scenario written to
 * catch its mistake (which the reference passes).
 *
 * Steady on a loaded 2-core machine: the reference merchant is compiled to JavaScript once and
 * each process runs it with plain node (the adapters' tsx command otherwise compiles it in every
 * process); at most as many merchants run at once as there are CPUs; readiness is /health polled.
 */

const root = join(import.meta.dirname, '..', '..')
const merchants = join(root, 'fixtures', 'merchants')

/**
 * Each twin, the scenarios that expose it (the first one written to catch it), and what that
 * failure must say. Together they cover every merchant scenario: each exposes at least one twin.
 */
const CAUGHT_BY: Record<
  string,
  {
    scenarios: string[]
    says: RegExp
    section: RegExp
    /** What a further scenario's first failed step must say, where its API words it otherwise. */
    alsoSays?: Record<string, RegExp>
  }
> = {
  'no-callback-hash-check': {
    scenarios: [
      'merchant-forged-callback-hash',
      'merchant-unsigned-callback',
      'merchant-forged-callback-amount',
      'merchant-forged-callback-status',
    ],
    says: /acknowledged #\d+ .*\[forged\] \(signed with another password.*and its order changed: state "failed" → "paid"/,
    section: /Events/,
  },
  '3ds-callback-as-paid': {
    scenarios: [
      'merchant-3ds-callback-is-not-payment',
      'merchant-3ds-then-decline',
      'merchant-redirect-callback-is-not-payment',
      'merchant-s2s-3ds-is-not-payment',
    ],
    says: /\$\.state: expected "pending", found "paid"[\s\S]*#0 3ds\/3ds \(success\) → attempt 1: HTTP 200/,
    section: /Events/,
  },
  'not-idempotent': {
    scenarios: [
      'merchant-duplicate-callback',
      'merchant-hpf-purchase-endpoint',
      'merchant-success-redirect-after-payment',
      'merchant-s2s-callback-retried-and-duplicated',
      'merchant-s2s-apm-callback-retried-and-duplicated',
      'merchant-s2s-3ds-return-passed',
    ],
    says: /^\d+\. expect\.merchant_order: [^\n]*wrongly: \$\.amount_paid: expected "10\.00", found "30\.00": it booked the same callback twice: the kit sent #\d+ sale\/settled \(success\) \[duplicate\] again and its order changed: amount_paid "10\.00" → "20\.00"[\s\S]*\(the kit sent it again\) → attempt 1: HTTP 200 "OK"; its order changed: .*amount_paid "10\.00" → "20\.00"/,
    section: /docs\/rules\.md#callbacks/,
  },
  'sha1-of-binary-md5': {
    scenarios: ['merchant-session-hash-sha1-over-hex-md5'],
    says: /^1\. merchant\.start checkout: the merchant's hash is sha1 of the binary md5 digest; the formula takes md5's hex digest \(POST \/api\/v1\/session, checkout\.session\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)\n[\s\S]*rule: checkout\.session: sha1\(md5\(upper\(order\.number[\s\S]*fix: hash md5's 32-character lower-case hex digest with sha1, not its 16 raw bytes[^\n]*: for this request [0-9a-f]{40}/,
    section: /Authentication/,
  },
  'amount-with-comma': {
    scenarios: ['merchant-amount-dot-separator'],
    says: /^1\. merchant\.start checkout: the merchant sent order\.amount "1234,50", with a comma as the decimal separator \(POST \/api\/v1\/session\) \(docs\/rules\.md#amounts\): the gateway refused it \(HTTP 400: order\.amount: [^\n]*\)\n[\s\S]*rule: docs\/rules\.md#amounts \(Amounts\): amounts are decimal strings with a dot[\s\S]*fix: use a dot as the decimal separator: "1234\.50"/,
    section: /2\.1\.1/,
  },
  'wrong-decimals': {
    scenarios: [
      'merchant-amount-zero-decimal-currency',
      'merchant-amount-three-decimal-currency',
      'merchant-s2s-amount-zero-decimal-currency',
      'merchant-s2s-amount-three-decimal-currency',
    ],
    // Intent: the kit compares the amount sent with the amount it asked for.
    says: /^\d+\. [^\n]*: the merchant sent order\.amount "15\.00" JPY for an order of 1500 JPY \(POST \/api\/v1\/session\): 1\/100 of it, as if JPY had 2 decimals; JPY has none[\s\S]*fix: format the amount from the currency's exponent[^\n]*"1500\.00"/,
    section: /2\.1\.1/,
  },
  'nested-order-number': {
    scenarios: ['merchant-callback-flat-keys'],
    // The kit re-sends the refused callback with order[number] added, which the merchant then takes.
    says: /^\d+\. expect\.callback_acknowledged: the merchant reads the callback's order_number from order\[number\], where the gateway posts the flat form field order_number \(docs\/rules\.md#callback-format\): it refused #0 sale\/settled \(success\), signed right, with HTTP 400 "invalid hash"[^\n]*[\s\S]*fix: take order_number from the flat field order_number[^\n]*read the callback's flat form fields \(id, order_number, order_amount, order_currency, order_description,/,
    section: /Events/,
  },
  'ignores-reversals': {
    scenarios: [
      'merchant-authorization-reversal',
      'merchant-s2s-authorization-reversal',
      'merchant-s2s-held-authorization-released',
    ],
    says: /\$\.state: expected "reversed", found "authorized"[\s\S]*refund\/reversal \(success\) → attempt 1: HTTP 200/,
    section: /States and transitions/,
  },
  'paid-on-redirect': {
    scenarios: ['merchant-success-redirect-is-not-payment', 'merchant-tampered-success-redirect'],
    says: /^\d+\. expect\.merchant_order: [^\n]*\$\.state: expected "failed", found "paid": its state became "paid" after \d+\. expect\.redirect success, with no callback booked[\s\S]*after \d+\. expect\.redirect[^\n]*: state "paid"/,
    section: /Events/,
  },
  'non-2xx-ack': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid', 'merchant-callback-retry'],
    says: /^\d+\. [^\n]*: the merchant's callback URL answers with a redirect: a redirect is not an acknowledgement: the callback URL itself answers a 2xx, and the kit does not follow it \(docs\/rules\.md#acknowledgement\): it did not acknowledge #0 sale\/settled \(success\): attempt 1: HTTP 302/,
    section: /docs\/rules\.md#callbacks/,
  },
  'never-captures-dms': {
    scenarios: ['merchant-dms-authorize-then-capture', 'merchant-dms-capture-declined'],
    says: /\$\.state: expected "authorized", found "paid"/,
    section: /States and transitions/,
  },
  'wrong-hpf-endpoint': {
    scenarios: ['merchant-hpf-debit-endpoint'],
    says: /^1\. merchant\.start checkout debit success: the merchant sent the card of a debit session to POST \/api\/v1\/processing\/purchase\/card, where the payment goes to the endpoint of the session's operation \(docs\/rules\.md#hpf-endpoints\): the gateway refused it \(HTTP 400: [^\n]*\)\n[\s\S]*fix: send the card to the endpoint of the session's operation: POST \/api\/v1\/processing\/debit\/card/,
    section: /Endpoints/,
  },
  'out-of-order-regression': {
    scenarios: [
      'merchant-callbacks-out-of-order',
      'merchant-s2s-callbacks-out-of-order',
      'merchant-s2s-apm-callbacks-out-of-order',
      'merchant-s2s-callbacks-settled-before-pending',
    ],
    says: /\$\.state: expected "paid", found "pending"[\s\S]*3ds\/3ds \(success\) → attempt 1: HTTP 200/,
    section: /States and transitions/,
  },
  's2s-ack-not-ok': {
    scenarios: ['merchant-s2s-callback-acknowledged-ok'],
    says: /^\d+\. [^\n]*: the merchant acknowledges S2S callbacks with another body: an S2S callback is acknowledged by the body OK, and only by it \(docs\/rules\.md#acknowledgement\): it did not acknowledge #\d+ SALE .*: attempt 1: HTTP 200 ".*received.*"[\s\S]*\(docs\/rules\.md#acknowledgement: acknowledgement is the body OK\)/,
    section: /docs\/rules\.md#callbacks/,
  },
  'unicode-upper': {
    scenarios: ['merchant-hash-upper-ascii-only'],
    says: /^1\. merchant\.start checkout: the merchant upper-cases with Unicode rules \(toUpperCase, str\.upper\(\)\), which also turn [^\n]*"é" into "É"[^\n]*; the formula upper-cases ASCII a-z only \(POST \/api\/v1\/session, checkout\.session\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)\n[\s\S]*fix: upper-case a-z alone and leave every other character as it is[^\n]*: for this request [0-9a-f]{40}/,
    section: /Authentication/,
  },
  'refund-signs-order-amount': {
    scenarios: ['merchant-partial-refund', 'merchant-full-refund'],
    says: /merchant\.action refund: the merchant's hash is over amount "10\.00" \(order\.amount of its POST \/api\/v1\/session\) where the request sent amount "4\.00" \(POST \/api\/v1\/payment\/refund, checkout\.amount-operation\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)\n[\s\S]*"amount":"4\.00"[\s\S]*rule: checkout\.amount-operation: sha1\(md5\(upper\(payment_id \+ amount \+ password\)\)\), amount only when sent, exactly as sent[\s\S]*fix: sign the amount the request sends \("4\.00"\): for this request [0-9a-f]{40}/,
    section: /Authentication/,
  },
  'ignores-declines': {
    scenarios: ['merchant-decline-marks-failed', 'merchant-hpf-declined-card'],
    says: /\$\.state: expected "failed", found "new"[\s\S]*sale\/decline \(fail\) → attempt 1: HTTP 200/,
    section: /Events/,
  },
  's2s-callback-hash-without-trans-id': {
    scenarios: ['merchant-s2s-callback-hash'],
    // The kit finds the callback signed right and re-sends it signed by common mistakes in Formula 2.
    says: /^\d+\. expect\.callback_acknowledged: the merchant verifies S2S CARD callbacks with a hash computed without trans_id \(s2s-card\.formula-2, docs\/rules\.md#s2s-card-formulas\): it refused #0 SALE SUCCESS SETTLED, signed right, with HTTP 400 "invalid hash", and acknowledged the same callback signed without trans_id[\s\S]*fix: verify the callback with s2s-card\.formula-2: hash = md5\(upper\(rev\(payer_email\) \+ password \+ trans_id \+ [^\n]*over payer_email "[^"]+", trans_id "[^"]+", first 6 \+ last 4 "4111111111" and the adapter's password: for this callback [0-9a-f]{32}, the hash it carries \(signed without trans_id, it is [0-9a-f]{32}\)/,
    section: /docs\/rules\.md#signatures/,
  },
  // Issue 16: the families a merchant written from the interface got wrong, and the kit missed.
  'no-amount-check': {
    scenarios: ['merchant-callback-amount-not-the-order', 'merchant-callback-currency-not-the-order'],
    // The first: a genuine callback for 1.00, the session's price lowered by a real session update.
    says: /\$\.state: expected "new", found "paid"[\s\S]*order_amount 1\.00 \(the session's price lowered by a session update[\s\S]*PUT \/api\/v1\/session\/update \{order_amount "1\.00"\} → HTTP 200[\s\S]*#0 sale\/settled \(success\), order_amount 1\.00 EUR \(the order began as 10\.00 EUR\) → attempt 1: HTTP 200/,
    section: /Events/,
  },
  'refund-rest-as-order-amount': {
    scenarios: [
      'merchant-refund-the-rest',
      'merchant-partial-capture-then-refund',
      'merchant-s2s-amounts-two-decimals-capture-refund',
    ],
    says: /^\d+\. [^\n]*: the merchant asked 10\.00 in POST \/api\/v1\/payment\/refund, where the payment has 6\.00 left \(10\.00 charged, 4\.00 refunded\) \(docs\/rules\.md#refunds; state table row refund-above-left\): the gateway refused it \(HTTP 400: amount: [^\n]*\)\n[\s\S]*fix: send at most 6\.00, or no amount for all of it[\s\S]*POST \/api\/v1\/payment\/refund \{amount "10\.00".*→ HTTP 400 .*208006/,
    section: /States and transitions/,
  },
  'capture-books-order-amount': {
    scenarios: ['merchant-partial-capture-then-refund'],
    says: /^\d+\. expect\.merchant_order: [^\n]*\$\.amount_paid: expected "6\.00", found "10\.00": it captured 6\.00 \(its POST \/api\/v1\/payment\/capture \{amount "6\.00"[^\n]*→ HTTP 200\) and booked 10\.00: a partial capture settles the amount captured/,
    section: /States and transitions/,
  },
  'forgets-recurring-token': {
    scenarios: ['merchant-recurring-charged-later', 'merchant-s2s-recurring-charged-later'],
    says: /^\d+\. [^\n]*the merchant sent no request to POST \/api\/v1\/payment\/recurring: its merchant_action recurring 10\.00 answered HTTP 200 \{"sent":false,"reason":"no recurring token"\}[\s\S]*merchant_action recurring 10\.00 → HTTP 200 \{"sent":false,"reason":"no recurring token"\}/,
    section: /2\.3/,
  },
  'return-lookup-wrong-hash': {
    scenarios: ['merchant-return-before-callback'],
    says: /: the merchant's lookup by payment_id is signed over the order number "merchant-return-before-callback-r1-1" \(order\.number of its POST \/api\/v1\/session\); a lookup by payment_id is signed over that payment_id \(POST \/api\/v1\/payment\/status, checkout\.status\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)\n[\s\S]*rule: checkout\.status: sha1\(md5\(upper\(payment_id \+ password\)\)\) for a lookup by payment_id[\s\S]*fix: sign the payment_id the lookup sends \("[0-9a-f-]{36}"\): for this request [0-9a-f]{40}/,
    section: /Authentication/,
  },
  'slow-callback-ack': {
    scenarios: ['merchant-callback-answered-in-time'],
    says: /attempt 1: no answer within 10 s \(time-out\)[\s\S]*a time-out is a failed attempt/,
    section: /docs\/rules\.md#callbacks/,
  },
  // Issue 16: callbacks across all APIs; the S2S APM callback formula appends the password upper-cased.
  'apm-callback-password-as-is': {
    scenarios: [
      'merchant-s2s-apm-callback-hash',
      'merchant-s2s-apm-callback-retried-and-duplicated',
      'merchant-s2s-apm-callbacks-out-of-order',
    ],
    // The kit finds the callback signed right and re-sends it signed by common mistakes in the formula.
    says: /^\d+\. expect\.callback_acknowledged: the merchant verifies S2S APM callbacks with a hash computed with the password appended as it is, not upper-cased \(s2s-apm\.callback, docs\/rules\.md#s2s-apm-signatures\): it refused #0 SALE REDIRECT REDIRECT, signed right, with HTTP 400 "invalid hash", and acknowledged the same callback signed with the password appended as it is, not upper-cased[\s\S]*rule: the callback's s2s-apm\.callback: hash = md5\(upper\(every field[\s\S]*\+ upper\(password\)\)[\s\S]*fix: verify the callback with s2s-apm\.callback: hash = md5\([^\n]*: for this callback [0-9a-f]{32}, the hash it carries/,
    section: /docs\/rules\.md#signatures/,
  },
  'amount-without-decimals': {
    scenarios: [
      'merchant-checkout-settled-callback-marks-paid',
      'merchant-partial-refund',
      'merchant-s2s-amount-zero-decimal-currency',
      'merchant-amounts-two-zeros-capture-refund',
    ],
    says: /^1\. merchant\.start checkout: the merchant sent order\.amount: 10 EUR, where the platform documents [^\n]* \(POST \/api\/v1\/session; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning[\s\S]*fix: send it as documented: order\.amount /,
    section: /warnings-and-releases/,
  },
  // Issue 23: causes before money moves (each headline names the refused request or the callback
  // handling), gateway faults (asks the status before retrying, never charges twice), intent.
  'unsigned-status-lookup': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid', 'merchant-return-before-callback'],
    says: /^\d+\. [^\n]*: the merchant sent POST \/api\/v1\/payment\/status unsigned \(no hash\), where checkout\.status signs it \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: This value should not be blank\.\)\n[\s\S]*fix: sign the request: it carried no hash; with the adapter's password this one is [0-9a-f]{40}/,
    section: /Authentication/,
  },
  'session-expiry-seconds': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid'],
    says: /^1\. merchant\.start checkout: the merchant sent session_expiry 1800, which looks like seconds \(30 minutes\), where it is counted in minutes \(POST \/api\/v1\/session\) \(docs\/rules\.md#session-expiry\): the gateway refused it \(HTTP 400: session_expiry: [^\n]*\)\n[\s\S]*rule: docs\/rules\.md#session-expiry \(Session life\): session_expiry is a whole number of minutes, 1 to 720[\s\S]*fix: session_expiry 1800 looks like seconds: send minutes \(30\)/,
    section: /docs\/rules\.md#session-expiry/,
  },
  'amount-as-json-number': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid'],
    says: /^1\. merchant\.start checkout: the merchant sent order\.amount as the JSON number 10, where the API takes a decimal string \(POST \/api\/v1\/session\) \(docs\/rules\.md#amounts\): the gateway refused it \(HTTP 400: order\.amount: [^\n]*\)\n[\s\S]*fix: send order\.amount as a string \("10\.00"[^\n]*not the JSON number 10/,
    section: /2\.1\.1/,
  },
  'callback-parsed-as-json': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid', 'merchant-s2s-callback-acknowledged-ok'],
    says: /^\d+\. [^\n]*: the merchant's callback handler failed on the callback \(HTTP 5xx\); callbacks are form-encoded \(application\/x-www-form-urlencoded\), read them as a form \(docs\/rules\.md#callback-format\): it did not acknowledge #0 sale\/settled \(success\): attempt 1: HTTP 500 [^\n]*[\s\S]*fix: parse the callback body as a form/,
    section: /callbacks/,
  },
  'recurring-flag-as-string': {
    scenarios: ['merchant-non-recurring-stays-non-recurring'],
    says: /recurring_init[\s\S]*"false"/,
    section: /2\.1/,
  },
  'always-recurring': {
    scenarios: ['merchant-non-recurring-stays-non-recurring'],
    says: /\$\.recurring_init: expected none of \[.*\], found true/,
    section: /2\.1/,
  },
  'retries-sale-blindly': {
    scenarios: [
      'merchant-fault-sale-answer-lost',
      'merchant-fault-sale-timeout',
      'merchant-fault-hpf-answer-lost',
    ],
    says: /^\d+\. expect\.no_double_charge[^\n]*: the merchant sent POST \/post SALE again for order [^\s]+ without looking the order up first, where its earlier POST \/post SALE was done and its answer lost \(sandbox fault "lost"\) \(one order, one charge: docs\/conformance\.md, Gateway faults\): the gateway did the second too \(HTTP 200 SETTLED, trans_id ([0-9a-f-]{36})\), and the payer is charged twice for order [^\s(]+ \(its payments, as the gateway made them: [0-9a-f-]{36} SETTLED, \1 SETTLED\)[\s\S]*fix: before sending a payment again, look the order up \(GET_TRANS_STATUS_BY_ORDER\)/,
    section: /Gateway faults/,
  },
  'unknown-outcome-as-failed': {
    scenarios: [
      'merchant-fault-sale-answer-lost',
      'merchant-fault-hpf-answer-lost',
      'merchant-fault-sale-lookup-slow',
    ],
    // The cause (no lookup of the order after the lost answer) heads; the merchant's answer follows.
    says: /^\d+\. merchant\.start s2s-card success: the merchant never looked order [^\n]* up after its POST \/post SALE got no answer: the gateway did it and its answer was lost \(sandbox fault "lost"\)[\s\S]*fix: look the order up \(GET_TRANS_STATUS_BY_ORDER\)[\s\S]*the merchant answered: \$\.status: expected none of \["error","failed",[^\]]*\], found "error"[\s\S]*Expected at this step: An answer that never came is an unknown outcome, not a failure/,
    section: /Gateway faults/,
  },
  'order-status-reads-oldest': {
    scenarios: ['merchant-shared-order-number'],
    says: /^\d+\. expect\.merchant_order: [^\n]*\$\.payment_id: expected "[0-9a-f-]{36}", found "[0-9a-f-]{36}": it booked [0-9a-f-]{36} \(decline\), the order's first payment, one of the 2 payments its POST \/api\/v1\/payment\/status \{order_id "shared-order-r1", size 10\} → HTTP 200 answered; the one that settled is [0-9a-f-]{36}[\s\S]*Expected: Of the order's payments the merchant books the one that settled[\s\S]*POST \/api\/v1\/payment\/status \{order_id "shared-order-r1", size 10\} → HTTP 200/,
    section: /Endpoints/,
  },
  'voids-held-authorization': {
    scenarios: ['merchant-held-authorization-across-days', 'merchant-s2s-held-authorization-released'],
    says: /^\d+\. merchant\.action void: the merchant sent POST \/api\/v1\/payment\/void for a held authorization \(pending, never captured\), which a VOID does not release \(docs\/rules\.md#void; state table row void-pending: Not allowed\): the gateway refused it \(HTTP 400: Void is not allowed\.\)\n[\s\S]*rule: docs\/rules\.md#void \(Void\): VOID cancels a settled payment on its financial day only; a held authorization \(PENDING\) is released by a refund of its full amount[\s\S]*fix: release it with a refund of its full amount \(no amount\), on any day: the state table moves it to reversal \(held-reversal\)/,
    section: /States and transitions/,
    alsoSays: {
      'merchant-s2s-held-authorization-released':
        /^\d+\. merchant\.action void: the merchant sent POST \/post VOID for a held authorization \(pending, never captured\), which a VOID does not release \(docs\/rules\.md#void; state table row void-pending: Not allowed\): the gateway refused it \(HTTP 400: Void is not allowed\.\)[\s\S]*fix: release it with CREDITVOID of its full amount \(no amount\), on any day: the state table moves it to reversal \(held-reversal\)/,
    },
  },
  'redirect-as-link': {
    scenarios: ['merchant-s2s-3ds-is-not-payment', 'merchant-s2s-callbacks-out-of-order'],
    says: /^\d+\. payer\.3ds pass: the payer follows the merchant: redirect_method: the merchant sends its payer with GET \(it reported no redirect_method: a link or a browser redirect is a GET\), where the gateway's redirect_method is POST; redirect_params: the merchant drops PaReq, MD, TermUrl/,
    section: /Events/,
  },
  'redirect-params-dropped': {
    scenarios: ['merchant-s2s-3ds-is-not-payment'],
    says: /^\d+\. payer\.3ds pass: the payer follows the merchant: redirect_params: the merchant drops MD, TermUrl, which the gateway's redirect_params carry/,
    section: /Events/,
  },
  'credit-nested-order': {
    scenarios: ['merchant-checkout-card-credit'],
    says: /^1\. merchant\.start checkout credit: the merchant nests its order under "order", where POST \/api\/v1\/payment\/card\/credit takes flat order_id, order_amount, order_currency, order_description \(docs\/rules\.md#required-fields\): the gateway refused it \(HTTP 400: order_id: [^\n]*\)\n[\s\S]*fix: send order_id, order_amount, order_currency, order_description as fields of the request itself, not under "order" \(as a session request does\)/,
    section: /Endpoints/,
  },
  'payout-signed-as-sale': {
    scenarios: ['merchant-s2s-payout-credit2card'],
    says: /^1\. merchant\.start s2s-card CREDIT2CARD: the merchant's hash is the formula of SALE, AUTH, DEBIT \(s2s-card\.formula-1\) over this request; CREDIT2CARD takes s2s-card\.formula-5: md5\(upper\(password \+ rev\(first6 \+ last4 \| card_token\)\)\), over the recipient's card \(POST \/post CREDIT2CARD, s2s-card\.formula-5\) \(docs\/rules\.md#s2s-card-formulas\): the gateway refused it \(HTTP 401: Hash is not valid\.\)\n[\s\S]*rule: s2s-card\.formula-5: md5\(upper\(password \+ rev\(first6 \+ last4[\s\S]*fix: sign CREDIT2CARD with its own formula: for this request [0-9a-f]{32}/,
    section: /Authentication/,
  },
  'refund-error-booked': {
    scenarios: ['merchant-fault-refund-unavailable'],
    says: /^\d+\. expect\.merchant_order: [^\n]*\$\.amount_refunded: expected "0\.00", found "4\.00": it booked a refund the gateway did not do: its POST \/api\/v1\/payment\/refund \{amount "4\.00".*\} → HTTP 503 \(sandbox fault "error": the gateway did nothing\)/,
    section: /Gateway faults/,
  },
  // Issue 23, requirement 4: several payments under one order number (lookups by order_id with and
  // without size); voids and refunds of captured payments across financial days.
  // Not merchant-shared-order-number: there the newest payment is the one that settled, so its
  // lookup without size books the right one (judged by outcome, docs/conformance.md).
  'order-status-without-size': {
    scenarios: ['merchant-order-lookup-without-size'],
    says: /^\d+\. expect\.merchant_order: the merchant booked order two-windows-r1 wrongly: \$\.payment_id: expected "[0-9a-f-]{36}", found "[0-9a-f-]{36}": it booked the answer of its POST \/api\/v1\/payment\/status \{order_id "two-windows-r1"\} → HTTP 200 \(by order_id without size\), which is only the order's newest payment \([0-9a-f-]{36} decline\); the order has 2 payments \(also [0-9a-f-]{36} settled\): look an order with several payments up with size/,
    section: /Endpoints/,
  },
  'voids-after-financial-day': {
    scenarios: [
      'merchant-capture-cancelled-days-later',
      'merchant-partial-refund-days-later',
      'merchant-s2s-capture-cancelled-days-later',
      'merchant-capture-days-later-cancelled-after',
      'merchant-s2s-capture-days-later-cancelled-after',
    ],
    says: /^\d+\. merchant\.action void: the merchant sent POST \/api\/v1\/payment\/void on \d{4}-\d\d-\d\d, after the payment's financial day \(it settled on \d{4}-\d\d-\d\d\) \(docs\/rules\.md#void; state table row void-late: After the financial day\): the gateway refused it \(HTTP 400: Void is not allowed\.\)\n[\s\S]*rule: docs\/rules\.md#void \(Void\): VOID cancels a settled payment on its financial day only[\s\S]*fix: refund it instead \(its full amount, or what remains of it\): the state table moves it to refund \(refund\); a VOID cancels a payment on the day it settled \(\d{4}-\d\d-\d\d\) only/,
    section: /States and transitions/,
    alsoSays: {
      'merchant-s2s-capture-cancelled-days-later':
        /^\d+\. merchant\.action void: the merchant sent POST \/post VOID on \d{4}-\d\d-\d\d, after the payment's financial day \(it settled on \d{4}-\d\d-\d\d\) \(docs\/rules\.md#void; state table row void-late: After the financial day\): the gateway refused it \(HTTP 400: Void is not allowed\.\)[\s\S]*fix: refund it instead with CREDITVOID/,
    },
  },
  'ignores-voids': {
    scenarios: ['merchant-capture-then-void-same-day', 'merchant-s2s-capture-then-void-same-day'],
    says: /\$\.state: expected "cancelled", found "paid": the last callback it acknowledged about this order: #\d+ void\/void \(success\)[\s\S]*void\/void \(success\) → attempt 1: HTTP 200/,
    section: /States and transitions/,
    alsoSays: {
      'merchant-s2s-capture-then-void-same-day':
        /\$\.state: expected "cancelled", found "paid": the last callback it acknowledged about this order: #\d+ VOID SUCCESS VOID[\s\S]*#\d+ VOID SUCCESS VOID → attempt 1: HTTP 200 "OK"/,
    },
  },
  // Issue 23, intent on S2S CARD: the form's flags are the letters Y or N.
  's2s-recurring-flag-as-boolean': {
    scenarios: [
      'merchant-s2s-non-recurring-stays-non-recurring',
      'merchant-s2s-amount-zero-decimal-currency',
    ],
    says: /^1\. merchant\.start s2s-card success: the merchant sent recurring_init "false", a boolean spelled as a word, where S2S flags are the letters Y or N \(POST \/post SALE\) \(docs\/rules\.md#booleans\): the gateway refused it \(HTTP 400: recurring_init: [^\n]*\)\n[\s\S]*fix: correct recurring_init, which was "false"; S2S flags are the letters Y or N \(docs\/rules\.md#booleans\): "false" is recurring_init=N, or no recurring_init at all/,
    section: /2\.3/,
  },
  's2s-always-recurring': {
    scenarios: ['merchant-s2s-non-recurring-stays-non-recurring'],
    says: /^\d+\. expect\.merchant_request s2s-card: the merchant sent recurring_init "Y" \(POST \/post SALE\) for a payment it was not asked to make recurring: the gateway started a recurring chain for it \(it answered a recurring_token\)[\s\S]*fix: leave recurring_init out \(or send N\)/,
    section: /2\.3/,
  },
  'amount-rounded-to-cents': {
    scenarios: ['merchant-s2s-amount-three-decimal-currency', 'merchant-amount-three-decimal-currency'],
    says: /^1\. merchant\.start s2s-card success: the merchant sent order_amount "12\.35" KWD for an order of 12\.345 KWD \(POST \/post SALE\): the order's amount rounded to 2 decimals; KWD has 3 \(ISO 4217\)[\s\S]*fix: [^\n]*send order_amount "12\.345"/,
    section: /2\.1\.1/,
  },
  // Issue 23, requirement 4 on S2S CARD: a declined order paid again under its order number.
  's2s-keeps-first-trans-id': {
    scenarios: ['merchant-s2s-shared-order-number'],
    says: /^\d+\. expect\.merchant_order: the merchant booked order s2s-shared-order-r1 wrongly: \$\.payment_id: expected "[0-9a-f-]{36}", found "[0-9a-f-]{36}": it booked [0-9a-f-]{36} \(DECLINED\), the order's first payment; the order has 2 payments \([0-9a-f-]{36} DECLINED, [0-9a-f-]{36} SETTLED\) and the one that settled is [0-9a-f-]{36}: a payment sent again under the same order number is a new payment with its own id \(S2S trans_id, Checkout payment_id\): keep the id of each answer and book, look up and refund the one that settled/,
    section: /Endpoints/,
  },
  // Issue 31: faults as real as the network. Each headline names the money moved twice, the unknown
  // outcome left unchecked, or the callback acknowledged before it could be applied.
  '5xx-as-decline': {
    scenarios: [
      'merchant-fault-sale-committed-502',
      'merchant-fault-hpf-committed-503',
      'merchant-fault-payout-committed-503',
      'merchant-fault-s2s-payout-committed-503',
    ],
    says: /^\d+\. merchant\.start s2s-card success: the merchant never looked order [^\n]* up after its POST \/post SALE got a proxy's HTTP 502 page: the gateway did it and a proxy answered HTTP 502 \(an HTML page\) in its place \(sandbox fault "lost"\)[\s\S]*fix: look the order up \(GET_TRANS_STATUS_BY_ORDER\)[\s\S]*the merchant answered: \$\.status: expected none of \[[^\]]*\], found "error"/,
    section: /Gateway faults/,
    alsoSays: {
      'merchant-fault-payout-committed-503':
        /^\d+\. merchant\.start checkout credit: the merchant never looked order [^\n]* up after its POST \/api\/v1\/payment\/card\/credit got a proxy's HTTP 503 page: the gateway did it[\s\S]*fix: look order [^\n]* up \(POST \/api\/v1\/payment\/status by order_id\)/,
    },
  },
  'retries-on-5xx': {
    scenarios: [
      'merchant-fault-refund-committed-503',
      'merchant-fault-s2s-refund-committed-503',
      'merchant-fault-capture-committed-504',
      'merchant-fault-s2s-capture-committed-504',
      'merchant-fault-void-committed-502',
      'merchant-fault-s2s-void-committed-502',
      'merchant-fault-payout-committed-503',
      'merchant-fault-s2s-payout-committed-503',
      'merchant-fault-recurring-committed-502',
      'merchant-fault-s2s-recurring-committed-502',
      'merchant-fault-sale-committed-502',
      'merchant-fault-hpf-committed-503',
    ],
    says: /^\d+\. expect\.merchant_order: the same refund was sent twice: the merchant sent POST \/api\/v1\/payment\/refund \(amount 4\.00\) again [^\n]*, where its earlier one was done and a proxy answered HTTP 503 \(an HTML page\) in its place \(sandbox fault "lost"\) \(one refund, done once: [^)]*\): the gateway did that one too, 4\.00 refunded twice \(payment [0-9a-f-]{36}: 10\.00 EUR charged, 8\.00 refunded, by the gateway's ledger\)[\s\S]*fix: treat an unanswered refund as an unknown outcome: look the payment up \(POST \/api\/v1\/payment\/status by payment_id\)/,
    section: /Gateway faults/,
    alsoSays: {
      'merchant-fault-s2s-capture-committed-504':
        /^\d+\. merchant\.action capture: the same capture was sent twice: the merchant sent POST \/post CAPTURE again [^\n]*, where its earlier one was done and a proxy answered HTTP 504 \(an HTML page\) in its place \(sandbox fault "lost"\)[^\n]*: the gateway refused it \(HTTP 400\)/,
      'merchant-fault-s2s-payout-committed-503':
        /^\d+\. expect\.merchant_order: the same payout was sent twice: the merchant sent POST \/post CREDIT2CARD \(amount 40\.00\) again [^\n]*: the gateway did that one too, 40\.00 paid out twice/,
      'merchant-fault-recurring-committed-502':
        /^\d+\. expect\.merchant_order: the same recurring charge was sent twice: the merchant sent POST \/api\/v1\/payment\/recurring \(amount 10\.00\) again [^\n]*: the gateway did that one too, 10\.00 charged twice/,
      'merchant-fault-sale-committed-502':
        /^\d+\. expect\.merchant_order: the merchant sent POST \/post SALE again for order [^\n]* without looking the order up first, where its earlier POST \/post SALE was done and a proxy answered HTTP 502 \(an HTML page\) in its place \(sandbox fault "lost"\)[^\n]*: the gateway did the second too/,
    },
  },
  'retries-on-timeout': {
    scenarios: [
      'merchant-fault-sale-late',
      'merchant-fault-hpf-late',
      'merchant-fault-refund-late',
      'merchant-fault-s2s-capture-late',
    ],
    says: /^\d+\. expect\.merchant_order: the merchant sent POST \/post SALE again for order [^\n]* without looking the order up first, where its earlier POST \/post SALE was done and its answer held until the merchant's client gave up \(sandbox fault "late"\)[^\n]*: the gateway did the second too \(HTTP 200 SETTLED, trans_id [0-9a-f-]{36}\), and the payer is charged twice[\s\S]*fix: before sending a payment again, look the order up \(GET_TRANS_STATUS_BY_ORDER\)/,
    section: /Gateway faults/,
    alsoSays: {
      'merchant-fault-refund-late':
        /^\d+\. expect\.merchant_order: the same refund was sent twice: the merchant sent POST \/api\/v1\/payment\/refund \(amount 4\.00\) again [^\n]*, where its earlier one was done and its answer held until the merchant's client gave up \(sandbox fault "late"\)[^\n]*: the gateway did that one too, 4\.00 refunded twice/,
    },
  },
  'acks-before-lookup': {
    scenarios: [
      'merchant-fault-callback-lookup-unavailable',
      'merchant-fault-s2s-callback-lookup-unavailable',
    ],
    says: /^\d+\. expect\.merchant_order: the merchant acknowledged #0 sale\/settled \(success\) \(attempt 1\) although its status lookup of the payment \(POST \/api\/v1\/payment\/status\) got a proxy's HTTP 503 page \(sandbox fault "error"\) and was not tried again: an acknowledged callback is never sent again[\s\S]*fix: confirm and apply the callback before answering it; when the status lookup fails, answer 503[\s\S]*\$\.state: expected "paid", found "new"/,
    section: /Gateway faults/,
    alsoSays: {
      'merchant-fault-s2s-callback-lookup-unavailable':
        /^\d+\. expect\.merchant_order: the merchant acknowledged #\d+ (SALE SUCCESS SETTLED|CREDITVOID SUCCESS REFUND) \(attempt 1\) although its status lookup of the payment \(POST \/post GET_TRANS_STATUS\) got a proxy's HTTP 503 page[\s\S]*\$\.amount_refunded: expected "4\.00", found "0\.00"/,
    },
  },
  'books-unanswered-as-done': {
    scenarios: ['merchant-fault-void-timeout'],
    says: /^\d+\. expect\.merchant_order: the merchant booked order [^\n]* wrongly: \$\.state: expected "paid", found "cancelled": its state became "cancelled" after \d+\. merchant\.action void, with no callback booked/,
    section: /Gateway faults/,
  },

  // Issue 31: payouts declined after accepted, renewals, the payer's return, financial days, exponents.
  'payout-paid-on-accepted': {
    scenarios: [
      'merchant-checkout-card-credit-declined',
      'merchant-checkout-card-credit-saved-card-declined',
      'merchant-s2s-payout-credit2card-declined',
    ],
    says: /^\d+\. expect\.merchant_order: the merchant booked order \S+ wrongly: \$\.state: expected "failed", found "paid": it booked the payout paid from the gateway's answer to its POST \/api\/v1\/payment\/card\/credit \{[^}]*\} → HTTP 200, which only says the payout was accepted; the gateway declined it \(Declined by processing\.\), as its callback #0 credit\/decline \(fail\) reported: book a payout by its outcome/,
    section: /Events/,
    alsoSays: {
      'merchant-s2s-payout-credit2card-declined':
        /found "paid": it booked the payout paid from the gateway's answer to its POST \/post CREDIT2CARD [^\n]*, whose result is DECLINED \(HTTP 200 only says the gateway answered\); the gateway declined it/,
    },
  },
  'renewal-as-initial': {
    scenarios: [
      'merchant-recurring-renewed-twice',
      'merchant-recurring-renewal-after-decline',
      'merchant-s2s-recurring-renewed-twice',
      'merchant-s2s-recurring-renewal-after-decline',
    ],
    says: /^\d+\. renewal 2: the merchant stored a renewal as the chain's initial transaction: its recurring_init_trans_id names [0-9a-f-]{36}, a renewal of the chain \(order \S+, settled\), not the chain's initial payment [0-9a-f-]{36} \(order merchant-recurring-renewed-twice-r1-1\) \(docs\/rules\.md#recurring-payments\): the gateway refused it \(HTTP 400: Incorrect transaction\)\n[\s\S]*fix: send recurring_init_trans_id [0-9a-f-]{36}, the initial payment's id/,
    section: /2\.3/,
    alsoSays: {
      'merchant-s2s-recurring-renewed-twice':
        /^\d+\. renewal 2: the merchant stored a renewal as the chain's initial transaction: its recurring_first_trans_id names [0-9a-f-]{36}, a renewal of the chain [^\n]* \(docs\/rules\.md#recurring-payments\): the gateway refused it \(HTTP 400: Incorrect transaction\)/,
    },
  },
  'paid-on-3ds-return': {
    scenarios: ['merchant-s2s-3ds-return-then-declined', 'merchant-s2s-3ds-return-failed'],
    says: /^\d+\. expect\.merchant_order: the merchant booked order \S+ wrongly: \$\.state: expected "failed", found "paid": it booked "paid" when its payer came back to GET http:\/\/127\.0\.0\.1:\d+\/payment\/return\?order_id=\S+ \(term_url_3ds\), with no callback or lookup saying so \(before: state "pending"[^)]*\); the gateway's payment was declined \(Declined by processing\.\): the payer's return is no payment report[\s\S]*its pages its payer came back to:\n\s+GET [^\n]*\(term_url_3ds; the gateway's payment was declined\) → HTTP 200 "Thank you, your order is paid"; its order changed: state "pending" → "paid"/,
    section: /Events/,
  },
  'hpf-3ds-as-decline': {
    scenarios: ['merchant-hpf-3ds-purchase'],
    says: /^\d+\. payer\.3ds pass: the merchant hands its payer no redirect_url \(its start_payment answer has none; it tells its frontend status "declined"\), but the gateway answered its POST \/api\/v1\/processing\/purchase\/card with redirect_url \S+ and result "redirect" \(3DS\): the payment waits for its payer, it is not declined/,
    section: /Events/,
  },
  'financial-day-from-authorization': {
    scenarios: ['merchant-capture-days-later-void-same-day', 'merchant-s2s-capture-days-later-void-same-day'],
    says: /^\d+\. expect\.merchant_request checkout: the merchant sent no request to POST \/api\/v1\/payment\/void: it refunded the payment instead \(its POST \/api\/v1\/payment\/refund [^\n]*→ HTTP 200\) on (\d{4}-\d\d-\d\d), the payment's financial day: it settled by its capture that day, after its authorization on \d{4}-\d\d-\d\d; the financial day is the capture's, not the authorization's/,
    section: /States and transitions/,
    alsoSays: {
      'merchant-s2s-capture-days-later-void-same-day':
        /the merchant sent no request to POST action VOID: it refunded the payment instead \(its POST \/post CREDITVOID [^\n]*\) on \d{4}-\d\d-\d\d, the payment's financial day: it settled by its capture that day/,
    },
  },
  'refunds-two-decimals': {
    scenarios: [
      'merchant-amounts-three-decimals-capture-refund',
      'merchant-amounts-zero-decimals-capture-refund',
      'merchant-amounts-iqd-refund',
      'merchant-s2s-amounts-zero-decimals-capture-refund',
      'merchant-s2s-amounts-three-decimals-capture-refund',
      'merchant-s2s-amounts-lyd-refund',
    ],
    says: /^\d+\. merchant\.action refund: the merchant sent amount: 4\.00 BHD, where the platform documents 3 decimals for BHD, for example 100\.000 \(POST \/api\/v1\/payment\/refund; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning/,
    section: /2\.1\.1/,
    alsoSays: {
      'merchant-amounts-zero-decimals-capture-refund':
        /the merchant sent amount: 50000\.00 VND, where the platform documents an integer for VND, for example 100 \(POST \/api\/v1\/payment\/refund; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning/,
      'merchant-s2s-amounts-zero-decimals-capture-refund':
        /the merchant sent amount: 500\.00 ISK, where the platform documents an integer for ISK[^\n]* \(POST \/post CREDITVOID; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning/,
    },
  },
  'three-decimals-without-iqd-lyd': {
    scenarios: ['merchant-amounts-iqd-refund', 'merchant-s2s-amounts-lyd-refund'],
    says: /^1\. merchant\.start checkout: the merchant sent order\.amount: 25\.50 IQD, where the platform documents 3 decimals for IQD, for example 100\.000 \(POST \/api\/v1\/session; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning/,
    section: /2\.1\.1/,
    alsoSays: {
      'merchant-s2s-amounts-lyd-refund':
        /the merchant sent order_amount: 25\.50 LYD, where the platform documents 3 decimals for LYD[^\n]* \(POST \/post SALE; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning/,
    },
  },
}

const twins = adapterNames(join(merchants, 'twins'))

let scenarios: LoadedScenario[] = []
let compiled: ReturnType<typeof compileReferenceMerchant>
// The adapter's process, run from the compiled JavaScript (same MISTAKE, port and credentials).
const runs = merchantRuns({
  process: (proc, file) => {
    if (proc.command.at(-1) !== 'fixtures/merchants/reference/main.ts')
      throw new Error(
        `${file}: expected the reference merchant's command, got ${JSON.stringify(proc.command)}`,
      )
    return { ...proc, command: [process.execPath, compiled.main] }
  },
})
const summaries = runs.summaries

beforeAll(async () => {
  const loaded = loadScenarios([join(root, 'scenarios')])
  expect(loaded.errors.map((e) => e.message)).toEqual([])
  scenarios = forMode(loaded.scenarios, 'merchant')
  compiled = compileReferenceMerchant()
  await runs.runAll(scenarios, [
    { name: 'reference', file: join(merchants, 'reference.json') },
    ...twins.map((twin) => ({
      name: twin,
      file: join(merchants, 'twins', `${twin}.json`),
      ...(CAUGHT_BY[twin] ? { only: CAUGHT_BY[twin].scenarios } : {}),
    })),
  ])
}, 600_000)

afterAll(async () => {
  await runs.close()
  compiled?.dispose()
})

/**
 * What a report shows for a failed step: what the kit saw, what is expected (the step's description)
 * and what the merchant did (issue 16: observations, not a headline fixed per scenario), the sections.
 */
function report(_slug: string, step: StepResult): string {
  return `${step.label}: ${step.message}\n  (interface: ${step.section ?? ''})`
}

describe('merchant scenarios', () => {
  it('number at least 20, each with a section and every expectation with a message', () => {
    const mine = scenarios.filter((s) => s.slug.startsWith('merchant-'))
    expect(mine.length).toBeGreaterThanOrEqual(20)
    for (const { slug, scenario } of mine) {
      expect(scenario.section, slug).toBeTruthy()
      for (const step of scenario.steps)
        if (step.step.startsWith('expect.'))
          expect((step as { description?: string }).description, `${slug} ${step.step}`).toMatch(
            /\(.*(docs\/rules\.md|Events|States|Endpoints|Authentication|2\.1).*\)/,
          )
    }
  })
})

describe('the reference merchant', () => {
  it('passes every merchant scenario', () => {
    const summary = summaries.get('reference') as RunSummary
    const problems = summary.results
      .filter((r) => r.status !== 'passed')
      .map(
        (r) =>
          `${r.slug}: ${r.status} ${r.reason ?? ''}\n${r.steps
            .filter((s) => s.status !== 'passed')
            .map((s) => report(r.slug, s))
            .join('\n')}`,
      )
    expect(problems).toEqual([])
    expect(summary.passed).toBe(scenarios.length)
  })
})

describe('the broken twins', () => {
  it('are at least 60, each with a scenario written to catch it', () => {
    expect(twins.length).toBeGreaterThanOrEqual(60)
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(twins)
  })

  it('together expose every merchant scenario', () => {
    const exposed = new Set(Object.values(CAUGHT_BY).flatMap((c) => c.scenarios))
    expect(
      scenarios.filter((s) => s.slug.startsWith('merchant-') && !exposed.has(s.slug)).map((s) => s.slug),
    ).toEqual([])
  })

  it.each(twins)('%s fails its scenarios, with a message naming the mistake and the section', (twin) => {
    const caught = CAUGHT_BY[twin] as (typeof CAUGHT_BY)[string]
    const results = summaries.get(twin)?.results ?? []
    for (const slug of caught.scenarios) {
      const result = results.find((r) => r.slug === slug)
      expect(result?.status, `${twin} did not fail ${slug}: ${JSON.stringify(result)}`).toBe('failed')
    }
    const [first] = caught.scenarios as [string]
    const failed = results
      .find((r) => r.slug === first)
      ?.steps.find((s) => s.status === 'failed') as StepResult
    expect(report(first, failed)).toMatch(caught.says)
    expect(failed.section ?? '').toMatch(caught.section)
    for (const [slug, says] of Object.entries(caught.alsoSays ?? {})) {
      const step = results.find((r) => r.slug === slug)?.steps.find((s) => s.status === 'failed')
      expect(step && report(slug, step), `${twin} on ${slug}`).toMatch(says)
      expect(step?.section ?? '', `${twin} on ${slug}`).toMatch(caught.section)
    }
  })
})
