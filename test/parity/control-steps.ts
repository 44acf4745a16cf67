import { get, hpf, keep, keepToken, post, type Step, session } from './build.js'

/** The control API (docs/rules.md#beyond-the-interface) and the payer actions it offers. */
export const CONTROL_STEPS: Step[] = [
  { name: 'health', status: 200, request: () => get('/sandbox/health') },
  { name: 'APM page', status: 200, request: (s) => get(`/sandbox/payments/${s.apm}/apm`) },
  {
    name: 'APM approve',
    status: 200,
    request: (s) => post(`/sandbox/payments/${s.apm}/apm`, { outcome: 'approve' }),
  },
  {
    name: 'APM: bad outcome',
    status: 400,
    request: (s) => post(`/sandbox/payments/${s.apm}/apm`, { outcome: 'maybe' }),
  },
  {
    name: '3DS payment for the control API',
    status: 200,
    request: () => post('/api/v1/session/token', session('c-1')),
    capture: keep('c1', 'token'),
  },
  {
    name: 'pay: 3DS',
    status: 200,
    request: (s) => hpf(s.c1, '05/2030'),
    capture: keep('c1Paid', 'payment_id'),
  },
  {
    name: '3DS result',
    status: 200,
    request: (s) => post(`/sandbox/payments/${s.c1Paid}/3ds`, { result: 'pass' }),
  },
  {
    name: '3DS result: again',
    status: 400,
    request: (s) => post(`/sandbox/payments/${s.c1Paid}/3ds`, { result: 'pass' }),
  },
  {
    name: 'redirect session',
    status: 200,
    request: () => post('/api/v1/session', session('c-2')),
    capture: keepToken('c2'),
  },
  {
    // docs/rules.md#page-token: a hosted-page session's page token authorizes no API call; its payer pays on
    // the page, or through the control API as the console and the kit do.
    name: 'pay: redirect, as the payer on the page',
    status: 200,
    request: (s) =>
      post(`/sandbox/sessions/${s.c2}/card`, {
        card_number: '4111111111111111',
        card_exp_month: '12',
        card_exp_year: '2030',
        card_cvv2: '123',
      }),
    capture: keep('c2Paid', 'payment_id'),
  },
  {
    name: 'pay: the page token at the Hosted Payment Fields endpoint',
    status: 401,
    request: (s) => hpf(s.c2, '12/2030'),
  },
  { name: 'payer returns', status: 200, request: (s) => post(`/sandbox/payments/${s.c2Paid}/redirect`, {}) },
  {
    name: 'merchant request: status',
    status: 200,
    request: (s) => post(`/sandbox/payments/${s.c2Paid}/merchant-request`, { action: 'status' }),
  },
  {
    name: 'export',
    status: 200,
    request: (s) => get(`/sandbox/payments/${s.c2Paid}/export`),
    capture: (s, b) => {
      s.export = JSON.stringify(b)
    },
  },
  {
    name: 'import: clash',
    status: 409,
    request: (s) => post('/sandbox/import', JSON.parse(s.export ?? '{}')),
  },
  { name: 'schedules', status: 200, request: () => get('/sandbox/schedules') },
  { name: 'schedule pause', status: 200, request: (s) => post(`/sandbox/schedules/${s.schedule}/pause`, {}) },
  { name: 'schedule run', status: 200, request: (s) => post(`/sandbox/schedules/${s.schedule}/run`, {}) },
  { name: 'advance clock', status: 200, request: () => post('/sandbox/clock/advance', { seconds: 120 }) },
  {
    name: 'advance clock: invalid',
    status: 400,
    request: () => post('/sandbox/clock/advance', { seconds: -1 }),
  },
  { name: 'clock', status: 200, request: () => get('/sandbox/clock') },
  { name: 'merchants', status: 200, request: () => get('/sandbox/merchants') },
  {
    name: 'merchant: create',
    status: 201,
    request: () =>
      post('/sandbox/merchants', {
        key: 'parity-merchant',
        password: 'parity-password-0123',
        mids: [{ id: 'parity-mid', moto: true }],
      }),
  },
  {
    name: 'merchant: create, key taken',
    status: 409,
    request: () =>
      post('/sandbox/merchants', { key: 'demo-merchant', password: 'x-password-0123', mids: [{ id: 'p2' }] }),
  },
  {
    name: 'merchant: delete',
    status: 200,
    request: () => ({ method: 'DELETE', path: '/sandbox/merchants/parity-merchant' }),
  },
  {
    name: 'merchant: delete, unknown',
    status: 404,
    request: () => ({ method: 'DELETE', path: '/sandbox/merchants/nobody' }),
  },
  // Gateway faults (docs/conformance.md, Gateway faults): set on a path no other step sends, listed, forgotten.
  {
    name: 'faults: add',
    status: 201,
    request: () => post('/sandbox/faults', { mode: 'error', match: { path: '/parity/none' }, count: 2 }),
  },
  {
    name: 'faults: add, unknown mode',
    status: 400,
    request: () => post('/sandbox/faults', { mode: 'slow' }),
  },
  { name: 'faults', status: 200, request: () => get('/sandbox/faults') },
  {
    name: 'faults: forget one',
    status: 200,
    request: () => ({ method: 'DELETE', path: '/sandbox/faults/fault-1' }),
  },
  {
    name: 'faults: forget one, unknown',
    status: 404,
    request: () => ({ method: 'DELETE', path: '/sandbox/faults/fault-99' }),
  },
  { name: 'faults: forget all', status: 200, request: () => ({ method: 'DELETE', path: '/sandbox/faults' }) },
  { name: 'payments', status: 200, request: () => get('/sandbox/payments?per_page=100') },
  { name: 'payments: bad query', status: 400, request: () => get('/sandbox/payments?per_page=0&per_page=5') },
  { name: 'payment: unknown', status: 404, request: () => get('/sandbox/payments/nope') },
  {
    name: 'callbacks',
    status: 200,
    request: () => get('/sandbox/callbacks'),
    capture: (s, b) => {
      s.delivery = String((b.deliveries as { id: string }[])[0]?.id)
    },
  },
  { name: 'callback', status: 200, request: (s) => get(`/sandbox/callbacks/${s.delivery}`) },
  { name: 'callback replay', status: 202, request: (s) => post(`/sandbox/callbacks/${s.delivery}/replay`) },
  { name: 'callback replay: unknown', status: 404, request: () => post('/sandbox/callbacks/nope/replay') },
  {
    name: 'callbacks: search',
    status: 200,
    request: () => get('/sandbox/callbacks?search=order&state=acknowledged'),
  },
  { name: 'callback URLs', status: 200, request: () => get('/sandbox/callback-urls') },
  {
    name: 'events stream',
    status: 200,
    request: () => ({ method: 'GET', path: '/sandbox/events', stream: true }),
  },
  // The request log (docs/rules.md#request-log): what both adapters handed the engine, read back alike.
  {
    name: 'request log: one order',
    status: 200,
    request: () => get('/sandbox/requests?merchant=demo-merchant&order_id=c-1&limit=5'),
    capture: (s, b) => {
      s.logged = String((b.requests as { id: string }[])[0]?.id)
    },
  },
  { name: 'request log: bad limit', status: 400, request: () => get('/sandbox/requests?limit=x') },
  { name: 'request log: one request', status: 200, request: (s) => get(`/sandbox/requests/${s.logged}`) },
  { name: 'request log: unknown request', status: 404, request: () => get('/sandbox/requests/nope') },
  {
    name: 'order as a scenario',
    status: 200,
    request: () => get('/sandbox/orders/c-1/scenario?merchant=demo-merchant'),
  },
  { name: 'reset', status: 200, request: () => post('/sandbox/reset', {}) },
  { name: 'import', status: 201, request: (s) => post('/sandbox/import', JSON.parse(s.export ?? '{}')) },
  { name: 'payments after reset and import', status: 200, request: () => get('/sandbox/payments') },
]
