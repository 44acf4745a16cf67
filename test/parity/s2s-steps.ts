import { signatures } from '../../src/index.js'
import {
  apmSale,
  keep,
  PASSWORD,
  post,
  type Step,
  s2s,
  s2sCardTransaction,
  s2sSale,
  toFormData,
  withHash,
} from './build.js'

const { s2sCard } = signatures

/** S2S CARD at /post and /v2/post, S2S APM at /post-va (docs/rules.md#transport). */
export const S2S_STEPS: Step[] = [
  {
    name: 'S2S SALE',
    status: 200,
    request: () => post('/post', s2sSale('s2s-1', '01')),
    capture: keep('trans', 'trans_id'),
  },
  {
    name: 'S2S SALE multipart',
    status: 200,
    request: () => post('/post', toFormData(s2sSale('s2s-2', '01'))),
  },
  { name: 'S2S SALE 3DS on /v2/post', status: 200, request: () => post('/v2/post', s2sSale('s2s-3', '05')) },
  {
    name: 'S2S SALE wrong hash',
    status: 401,
    request: () => post('/post', withHash(s2sSale('s2s-4', '01'), '0'.repeat(32))),
  },
  {
    name: 'S2S GET_TRANS_STATUS',
    status: 200,
    request: (s) => post('/post', s2sCardTransaction('GET_TRANS_STATUS', s.trans)),
  },
  {
    name: 'S2S CAPTURE unknown',
    status: 400,
    request: () => post('/post', s2sCardTransaction('CAPTURE', 'nope')),
  },
  { name: 'S2S unknown action', status: 400, request: () => post('/post', s2s({ action: 'TELEPORT' })) },
  {
    name: 'S2S CREATE_SCHEDULE',
    status: 200,
    request: () =>
      post(
        '/post',
        s2s({
          action: 'CREATE_SCHEDULE',
          name: 'Monthly',
          interval_length: '1',
          interval_unit: 'month',
          // docs/rules.md#schedules: CREATE_SCHEDULE requires payments_count.
          payments_count: '12',
          hash: s2sCard.createSchedule(PASSWORD),
        }),
      ),
    capture: keep('schedule', 'schedule_id'),
  },
  {
    name: 'S2S SCHEDULE_INFO',
    status: 200,
    request: (s) =>
      post(
        '/post',
        s2s({
          action: 'SCHEDULE_INFO',
          schedule_id: s.schedule ?? '',
          hash: s2sCard.schedule(s.schedule ?? '', PASSWORD),
        }),
      ),
  },
  {
    name: 'S2S APM SALE vcard',
    status: 200,
    request: () => post('/post-va', apmSale('apm-1', 'vcard', 'success@gmail.com')),
  },
  {
    name: 'S2S APM SALE redirect',
    status: 200,
    request: () => post('/post-va', apmSale('apm-2', 'sepa', 'payer-2')),
    capture: keep('apm', 'trans_id'),
  },
  {
    name: 'S2S APM SALE to decline',
    status: 200,
    request: () => post('/post-va', apmSale('apm-3', 'sepa', 'payer-3')),
    capture: keep('apmDeclined', 'trans_id'),
  },
  { name: 'payer declines the APM', payer: (sandbox, s) => sandbox.payer.declineApm(s.apmDeclined ?? '') },
  {
    name: 'S2S APM SALE wrong hash',
    status: 401,
    request: () => post('/post-va', withHash(apmSale('apm-4', 'vcard', 'success@gmail.com'), '0'.repeat(32))),
  },
]
