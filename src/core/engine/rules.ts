/**
 * docs/rules.md#rule-book: the rules a refusal of the gateway, or a verdict of the conformance kit,
 * can name, by their anchor in docs/rules.md. Every refusal carries one of these ids (refusal.ts,
 * the `Sandbox-Rule` header); the catalogue's rows name theirs (`rule`), the field schemas
 * theirs (`x-rule`), the signing formulas and the payment state table theirs. The kit words its
 * rule lines from `says` and `source`, never from a table of its own. test/engine/rules.test.ts
 * holds the table and the rule book's anchors to each other, both ways.
 */
export interface Rule {
  /** The heading of the rule in docs/rules.md. */
  title: string
  /** The interface's section the rule rests on (`2.1.1`, `Authentication`); '' for the sandbox's own. */
  section: string
  /** The rule in one sentence, as the rule book states it. */
  says: string
  /** Where it comes from: the interface's section, the platform's document, or the sandbox. */
  source: string
}

export const RULES = {
  // Signatures.
  signatures: {
    title: 'Signatures',
    section: 'Authentication',
    says: "every signed request and callback carries in `hash` the formula of its request, computed with the merchant's password",
    source: 'the interface, Authentication',
  },
  'signature-conventions': {
    title: 'Signature conventions',
    section: 'Authentication',
    says: 'upper() upper-cases ASCII a-z only; fields are concatenated with no separator, amounts exactly as sent; an optional field not sent drops out of its formula',
    source: 'S2S CARD 5.6.2 Appendix A',
  },
  'checkout-signatures': {
    title: 'Checkout signatures',
    section: 'Authentication',
    says: 'hash = sha1 over the lower-case hex md5 of the upper-cased fields of the request, then the password',
    source: 'Checkout 6.6.2, Appendix "Hash signature"',
  },
  's2s-card-formulas': {
    title: 'S2S CARD signatures',
    section: 'Authentication',
    says: 'hash = md5 of the upper-cased formula of the action (Formulas 1-8)',
    source: 'S2S CARD 5.6.2, Appendix A',
  },
  's2s-apm-signatures': {
    title: 'S2S APM signatures',
    section: 'Authentication',
    says: 'hash = md5 of the formula of the action; callbacks cover the whole body',
    source: 'S2S APM 3.6.2, Appendix A; the interface, Authentication 3 and 6',
  },
  credentials: {
    title: 'Merchant credentials',
    section: 'Authentication',
    says: 'merchant_key (Checkout) or client_key (S2S) names a merchant of the sandbox; an unknown key is refused and changes nothing',
    source: 'the interface, Authentication; Checkout 6.6.2 (the bad-request example)',
  },
  'token-header': {
    title: 'The Token header',
    section: 'Authentication',
    says: 'session update and Hosted Payment Fields payments are authorized by the session token of /api/v1/session/token in the Token header, while the session is open',
    source: 'the interface, Authentication 2; HPF 1.0.0',
  },

  // Transport.
  endpoints: {
    title: 'Endpoints and content types',
    section: 'Endpoints',
    says: 'Checkout takes JSON (application/json); S2S CARD and S2S APM take forms (application/x-www-form-urlencoded or multipart) with the action in `action`',
    source: 'the interface, Endpoints; S2S CARD 5.6.2; S2S APM 3.6.2',
  },
  'base-path': {
    title: 'Base path',
    section: '',
    says: 'under a base path every route is served below that prefix; a request outside it is not found',
    source: 'white-label deployments',
  },
  'request-paths': {
    title: 'Request paths',
    section: '',
    says: 'a path is read once, normalised (empty and dot segments, a trailing slash); an encoded slash or backslash in it is refused',
    source: '(sandbox)',
  },
  'request-limits': {
    title: 'Request limits',
    section: 'Limits',
    says: 'a body above limits.body_bytes (1 MiB), a request not received in time, a head too large or unreadable, nesting deeper than 32 levels are refused before the request is served',
    source: '(sandbox); HTTP 408, 413, 431',
  },
  connections: {
    title: 'Connections and event streams',
    section: 'Limits',
    says: 'at the connection cap the idlest connection is closed to make room, else a reserve serves health, the control API and the payer pages only; event streams are capped in total and per client; a stream reader that takes nothing for the drain time-out is let go',
    source: '(sandbox); HTTP 429, 503 with Retry-After',
  },
  errors: {
    title: 'Errors and envelopes',
    section: 'Errors',
    says: 'field, signature and business refusals are answered in the envelope of the API: Checkout "Request data is invalid." with one errors[] item each, S2S result ERROR',
    source: 'the interface, Errors; Checkout 6.6.2',
  },
  'business-codes': {
    title: 'Business codes',
    section: 'Errors',
    says: "business refusals carry the platform's catalogue codes with their exact messages, unless the interface's table has the row",
    source: 'S2S CARD 5.6.2, error codes; docs page /docs/guides/resources/api_error_reference',
  },
  'not-found': {
    title: 'Unknown identifiers',
    section: 'Errors',
    says: 'an identifier the merchant does not own is not found, exactly as one that does not exist: a transaction or an order answers 101000, a payment, a schedule or a recurring pair 100000 with its own message; nothing changes',
    source:
      'the interface, Errors (the per-entity rule); docs page /docs/guides/resources/api_error_reference',
  },

  // Fields.
  'required-fields': {
    title: 'Required fields',
    section: '2.1',
    says: 'a field the request requires must be sent, not empty: "This value should not be blank."',
    source: 'the interface, 2.1 and the S2S field tables; Checkout 6.6.2 (the bad-request example)',
  },
  'unexpected-fields': {
    title: 'Fields the request does not take',
    section: '2.1',
    says: 'a field the request does not describe is refused: "This field was not expected."',
    source: 'the interface, 2.1 and Endpoints (the fields of each request)',
  },
  'field-formats': {
    title: 'Field formats',
    section: '2.1',
    says: "a field's value has the type, length, format and allowed values its request describes",
    source: "the interface, 2.1-2.7 and Limits; the platform's field tables",
  },
  amounts: {
    title: 'Amounts',
    section: '2.1.1',
    says: 'amounts are decimal strings with a dot and exactly the currency\'s ISO 4217 decimals ("10.00" EUR, "1000" ISK, "1.000" KWD; UGX, JPY, KRW and CLP as "1000.00"); a zero amount only where a zero amount is taken',
    source: 'the interface, 2.1.1; Checkout 6.6.2 order.amount; S2S CARD 5.6.2 order_amount',
  },
  booleans: {
    title: 'Booleans and numbers',
    section: '2.1',
    says: 'Checkout takes JSON true/false and JSON numbers; S2S flags are the letters Y or N',
    source: 'Checkout 6.6.2; S2S CARD 5.6.2 ("Y or N")',
  },
  'null-objects': {
    title: 'Optional objects sent as null',
    section: '2.1',
    says: 'an optional object sent as null is taken as absent (with a warning); a required one stays an error',
    source: 'the interface, 2.1',
  },
  'card-token-form': {
    title: 'card_token on the session',
    section: '2.1',
    says: 'card_token on a session is a string, or an array of one string',
    source: 'the interface, 2.1; Checkout 6.6.2',
  },
  'session-expiry': {
    title: 'Session life',
    section: '2.1',
    says: 'session_expiry is a whole number of minutes, 1 to 720, default 60; an expired or cancelled session takes no payment',
    source: 'Checkout 6.6.2 (session_expiry)',
  },
  'callback-destination': {
    title: 'Callback destination',
    section: 'Events',
    says: "callbacks go to the merchant's notification_url, or a per-payment S2S callback_url of at most 255 characters",
    source:
      'the interface, Events; docs pages /docs/guides/s2s_card/callbacks, /docs/guides/s2s_apm/callbacks',
  },
  'card-credit': {
    title: 'Card credit',
    section: 'Endpoints',
    says: 'a card credit identifies the card by card_number or by card_token, exactly one; an expiry goes with card_number, both months and year or neither',
    source: 'the interface, Endpoints; docs page /docs/requests/checkout/card-credit',
  },
  'card-data': {
    title: 'Card data and card tokens',
    section: '2.5',
    says: 'a card number passes the Luhn check, its expiry is not past on the sandbox clock, card_cvv2 is sent unless the payment is MOTO; a card_token is one the gateway issued to this merchant',
    source: 'the interface, 2.5 and 2.6; S2S CARD 5.6.2 (205005 "Card token is invalid or not found.")',
  },
  'method-identifiers': {
    title: 'Method identifiers',
    section: '2.2',
    says: "a method or S2S APM brand is one of the catalogue's identifiers or aliases",
    source: 'the interface, 2.2',
  },
  methods: {
    title: 'Methods and operations',
    section: '2.2',
    says: 'a method serves the operations and actions its catalogue entry lists; the card is paid only on a session that offers it',
    source: 'the interface, 2.2; S2S APM 3.6.2',
  },

  // Sessions and Hosted Payment Fields.
  'page-token': {
    title: 'The page token',
    section: '',
    says: "the token in the payer's page URL opens that session's page and authorizes no API call; a page token the sandbox does not hold is not found",
    source: 'HPF 1.0.0',
  },
  'session-payments': {
    title: 'One payment per session',
    section: 'Endpoints',
    says: 'a session takes one payment: another card may be tried only after a decline',
    source: '(sandbox); the interface, Endpoints (session update "until a payment exists")',
  },
  'session-update': {
    title: 'Session update',
    section: 'Endpoints',
    says: 'PUT /session/update takes only a token of /session/token, refuses merchant_key and hash, and is allowed until a payment exists',
    source: 'the interface, Endpoints; docs page /docs/requests/hosted_payment_fields/session-update',
  },
  'hosted-payment-fields': {
    title: 'Hosted Payment Fields',
    section: 'Endpoints',
    says: "the card goes from the fields' frames into the session (collectIframesData()), never through the merchant",
    source: 'HPF 1.0.0',
  },
  'hpf-endpoints': {
    title: 'The Hosted Payment Fields endpoint',
    section: 'Endpoints',
    says: "the payment goes to /api/v1/processing/<the session's operation>/card: purchase or debit",
    source: 'the interface, Endpoints ("The endpoint must match the session operation")',
  },

  // Payments.
  'mid-routing': {
    title: 'MID routing',
    section: '2.5',
    says: "a payment is routed to the first of the merchant's MIDs that fits its payment mode, MOTO and zero amount; none fits, none serves it",
    source: 'the interface, 2.1.1, 2.5 and Versioning (6.7.0 routing)',
  },
  'payment-states': {
    title: 'Payment states',
    section: 'States and transitions',
    says: 'every status change of a payment is a row of the state table; a move the table lacks is refused and changes nothing',
    source: 'the interface, States and transitions',
  },
  capture: {
    title: 'Capture',
    section: 'States and transitions',
    says: 'a held authorization (PENDING) is captured once, for at most the authorized amount; a partial capture settles that amount',
    source: 'the interface, States and transitions; S2S CARD 5.6.2 (208003, 208004)',
  },
  refunds: {
    title: 'Refunds and reversals',
    section: 'States and transitions',
    says: 'a refund is at most what the payment has left (captured less refunded); a held authorization is released by a refund of its full amount, reported as a reversal; a debit always yields a reversal',
    source: 'the interface, States and transitions; S2S CARD 5.6.2 (208006, 208009)',
  },
  'refund-not-allowed': {
    title: 'Refund is not allowed',
    section: 'States and transitions',
    says: "a refund the payment's status does not allow (a payout, a payment not paid) is refused",
    source: 'the interface, States and transitions',
  },
  void: {
    title: 'Void',
    section: 'States and transitions',
    says: 'VOID cancels a settled payment on its financial day only; a held authorization (PENDING) is released by a refund of its full amount; after the financial day a settled payment is refunded',
    source: 'the interface, States and transitions ("Same financial day only"; PENDING "Not allowed")',
  },
  'recurring-payments': {
    title: 'Recurring payments',
    section: '2.3',
    says: "a recurring payment names an initial payment of the merchant that started a chain (recurring_init) with that chain's recurring_token",
    source: 'the interface, 2.3 and Errors ("Incorrect transaction")',
  },
  'recurring-test-amounts': {
    title: 'Retries of recurring payments',
    section: '2.3',
    says: 'RETRY charges again a softly declined secondary recurring payment only; Checkout retry a declined secondary payment',
    source: 'S2S CARD 5.6.2, RETRY; Checkout 6.6.2, retry',
  },
  schedules: {
    title: 'Schedules',
    section: '2.3',
    says: "schedule actions name a schedule of the merchant; DESCHEDULE takes a recurring_token of the schedule's chain",
    source: 'S2S CARD 5.6.2 (schedule actions); the interface, 2.3',
  },
  'wallet-flows': {
    title: 'Device-wallet flows',
    section: '2.2.3',
    says: 'a wallet payment that followed the virtual flow has no capture and no recurring payments',
    source: 'the interface, 2.2.3',
  },
  'status-lookups': {
    title: 'Status lookups',
    section: 'Endpoints',
    says: 'a lookup by order_id without size answers the newest payment of the order; with size (1 to 100) that many, newest first',
    source: 'the interface, Endpoints and Limits',
  },
  's2s-apm-actions': {
    title: 'S2S APM actions',
    section: 'Endpoints',
    says: 'DEBIT2VIRTUAL_COMPLETE completes a prepared DEBIT2VIRTUAL_CALC; payouts go to brands that take them',
    source: 'S2S APM 3.6.2',
  },
  releases: {
    title: 'Releases',
    section: 'Versioning',
    says: 'a merchant on release 6.6.5 is refused the additions of 6.7.0 and answered by the rules 6.7.0 changed (delays, not-found codes, payer address, payment mode)',
    source: 'the interface, Versioning',
  },

  // Callbacks (judged by the kit on the merchant's side).
  'callback-format': {
    title: 'Callback format',
    section: 'Events',
    says: 'callbacks are POSTed as a form (application/x-www-form-urlencoded), flat keys such as order_number',
    source: 'docs pages /docs/guides/checkout/callbacks, /docs/guides/s2s_card/callbacks',
  },
  acknowledgement: {
    title: 'Acknowledgement',
    section: 'Events',
    says: 'a Checkout callback is acknowledged by any 2xx, an S2S callback by the body OK, within the time-out',
    source: 'docs pages /docs/guides/checkout/callbacks, /docs/guides/s2s_card/s2s_card_overview',
  },

  // The sandbox's own API.
  'control-api': {
    title: 'Control API',
    section: '',
    says: 'the control API under /sandbox acts on records and merchants the sandbox holds',
    source: '(sandbox)',
  },
  'request-log': {
    title: 'Request log and replay',
    section: '',
    says: 'the sandbox records the requests it answered, by merchant, order and payment; a request or an order it does not hold is not found, and an order number several merchants use needs its merchant',
    source: '(sandbox)',
  },
  'control-guard': {
    title: 'Control API guard',
    section: '',
    says: 'the control API refuses cross-origin requests, form content types, a Host it does not serve and a missing or wrong control token, before reading anything',
    source: '(sandbox)',
  },
  'page-guard': {
    title: 'Hosted page guard',
    section: '',
    says: "a hosted page that changes state refuses a request from another site by the control API's cross-origin rule (a payer posted to the ACS page or the redirect simulator is shown the page instead); a page shows a payment's status only to its own merchant's page",
    source: '(sandbox)',
  },
  'store-unavailable': {
    title: 'Store unavailable',
    section: '',
    says: 'a change the data file cannot take (a full disk) is refused 503 with Retry-After; nothing changed',
    source: '(sandbox)',
  },
} as const satisfies Record<string, Rule>

export type RuleId = keyof typeof RULES

export const isRuleId = (id: string): id is RuleId => Object.hasOwn(RULES, id)

/** `docs/rules.md#amounts (Amounts): amounts are decimal strings … (the interface, 2.1.1; …)`. */
export function ruleLine(id: RuleId): string {
  const rule: Rule = RULES[id]
  return `docs/rules.md#${id} (${rule.title}): ${rule.says} (${rule.source})`
}

/** `2.1.1; docs/rules.md#amounts`: where a report files a failure of the rule. */
export function ruleSection(id: RuleId): string {
  const { section }: Rule = RULES[id]
  return section ? `${section}; docs/rules.md#${id}` : `docs/rules.md#${id}`
}
