import { get, keep, keepToken, post, type Step, session } from './build.js'

const card = (month: string) =>
  new URLSearchParams({
    card_number: '4111111111111111',
    card_exp_month: month,
    card_exp_year: '2030',
    card_cvv2: '123',
  })

/**
 * The payer's hosted pages (docs/rules.md#hosted-payment-fields: "The hosted page lives at `{base_url}/auth/<session
 * token>`"): HTML and form posts answered with 303. Their content is the pages' own tests'
 * business; here they must only read the same through both adapters.
 */
export const PAGE_STEPS: Step[] = [
  {
    name: 'page session',
    status: 200,
    request: () => post('/api/v1/session', session('pg-1', { methods: ['card', 'sepa'] })),
    capture: keepToken('page'),
  },
  { name: 'hosted page', status: 200, request: (s) => get(`/auth/${s.page}`) },
  { name: 'hosted page: unknown token', status: 404, request: () => get('/auth/ffff') },
  { name: 'hosted page: pay 3DS card', status: 303, request: (s) => post(`/auth/${s.page}/pay`, card('05')) },
  {
    name: 'payment of the page',
    status: 200,
    request: () => get('/sandbox/payments?order_id=pg-1'),
    capture: (s, b) => {
      s.pagePaid = String((b.payments as { id: string }[])[0]?.id)
    },
  },
  { name: 'ACS page', status: 200, request: (s) => get(`/acs/${s.pagePaid}`) },
  {
    name: 'ACS result',
    status: 303,
    request: (s) => post(`/acs/${s.pagePaid}`, new URLSearchParams({ result: 'pass' })),
  },
  {
    name: 'method session',
    status: 200,
    request: () => post('/api/v1/session', session('pg-2', { methods: ['card', 'sepa'] })),
    capture: keepToken('method'),
  },
  {
    name: 'hosted page: pick a method',
    status: 303,
    request: (s) => post(`/auth/${s.method}/method/sepa`, new URLSearchParams()),
  },
  {
    name: 'payment of the method',
    status: 200,
    request: () => get('/sandbox/payments?order_id=pg-2'),
    capture: (s, b) => {
      s.methodPaid = String((b.payments as { id: string }[])[0]?.id)
    },
  },
  { name: 'APM simulator page', status: 200, request: (s) => get(`/apm/${s.methodPaid}`) },
  { name: 'APM simulator state', status: 200, request: (s) => get(`/apm/${s.methodPaid}/state`) },
  { name: 'APM simulator state: unknown payment', status: 404, request: () => get('/apm/ffff/state') },
  {
    name: 'APM ticket: not an axxi-cash payment',
    status: 404,
    request: (s) => get(`/apm/${s.methodPaid}/ticket.pdf`),
  },
  {
    name: 'APM simulator: approve',
    status: 303,
    request: (s) => post(`/apm/${s.methodPaid}/outcome`, new URLSearchParams({ outcome: 'approve' })),
  },
  {
    name: 'ticket session',
    status: 200,
    request: () =>
      post(
        '/api/v1/session',
        session('pg-6', { methods: ['axxi-cash'], parameters: { 'axxi-cash': { id_document: 'AB123456' } } }),
      ),
    capture: keepToken('ticket'),
  },
  {
    name: 'hosted page: pick axxi-cash',
    status: 303,
    request: (s) => post(`/auth/${s.ticket}/method/axxi-cash`, new URLSearchParams()),
  },
  {
    name: 'payment of the ticket',
    status: 200,
    request: () => get('/sandbox/payments?order_id=pg-6'),
    capture: (s, b) => {
      s.ticketPaid = String((b.payments as { id: string }[])[0]?.id)
    },
  },
  { name: 'APM ticket PDF', status: 200, request: (s) => get(`/apm/${s.ticketPaid}/ticket.pdf`) },
  { name: 'payer messages', status: 200, request: () => get('/sandbox/messages') },
  {
    name: 'cancel session',
    status: 200,
    request: () => post('/api/v1/session', session('pg-3', { cancel_url: 'https://shop.test/cancel' })),
    capture: keepToken('cancel'),
  },
  {
    name: 'hosted page: cancel',
    status: 303,
    request: (s) => post(`/auth/${s.cancel}/cancel`, new URLSearchParams()),
  },
  {
    name: 'redirect session',
    status: 200,
    request: () => post('/api/v1/session', session('pg-4')),
    capture: keepToken('redirect'),
  },
  {
    name: 'hosted page: pay redirect card',
    status: 303,
    request: (s) => post(`/auth/${s.redirect}/pay`, card('12')),
  },
  {
    name: 'payment of the redirect',
    status: 200,
    request: () => get('/sandbox/payments?order_id=pg-4'),
    capture: (s, b) => {
      s.redirectPaid = String((b.payments as { id: string }[])[0]?.id)
    },
  },
  { name: 'redirect simulator', status: 200, request: (s) => get(`/redirect-sim/${s.redirectPaid}`) },
  {
    name: 'redirect simulator: return',
    status: 303,
    request: (s) => post(`/redirect-sim/${s.redirectPaid}`, new URLSearchParams()),
  },
  { name: 'HPF demo page', status: 200, request: () => get('/hpf/demo') },
  { name: 'HPF demo token', status: 303, request: () => post('/hpf/demo', new URLSearchParams()) },
  {
    name: 'HPF session token',
    status: 200,
    request: () => post('/api/v1/session/token', session('pg-5')),
    capture: keep('hpfPage', 'token'),
  },
  { name: 'HPF page', status: 200, request: (s) => get(`/hpf/${s.hpfPage}`) },
  // docs/rules.md#sessions: the platform's script, one field's frame, the frames' collect
  { name: 'HostedFields script', status: 200, request: () => get('/sdk/hosted-fields.js') },
  { name: 'hosted field frame', status: 200, request: (s) => get(`/sdk/hosted-fields/${s.hpfPage}/card`) },
  { name: 'hosted field script', status: 200, request: () => get('/assets/hosted-field.js') },
  { name: 'HPF demo script', status: 200, request: () => get('/assets/hpf-demo.js') },
  {
    name: 'hosted fields: collect',
    status: 200,
    request: (s) =>
      post(`/sdk/hosted-fields/${s.hpfPage}/collect`, {
        card_number: '4111111111111111',
        card_exp_month: '01',
        card_exp_year: '2030',
        card_cvv2: '123',
      }),
  },
  { name: 'HPF page: pay', status: 200, request: (s) => post(`/hpf/${s.hpfPage}/pay`, card('01')) },
  { name: 'terms', status: 200, request: () => get('/terms') },
  { name: 'hosted script', status: 200, request: () => get('/assets/hosted.js') },
  { name: 'hosted payment fields script', status: 200, request: () => get('/assets/hpf.js') },
  { name: 'APM pages script', status: 200, request: () => get('/assets/apm.js') },
]
