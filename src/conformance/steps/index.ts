import type { StepHandler } from '../context.js'
import type { Step } from '../types.js'
import {
  callbacksDuplicate,
  callbacksFail,
  callbacksForge,
  callbacksReorder,
  callbacksSend,
} from './callbacks.js'
import { clockAdvance } from './clock.js'
import { expectAcknowledged, expectCallback, expectNoCallback, expectRedirect } from './expect-callbacks.js'
import { expectMerchantRequest, expectNoMerchantRequest } from './expect-merchant.js'
import { expectMerchantOrder, expectNoDoubleCharge } from './expect-order.js'
import { gatewayFault } from './faults.js'
import { gatewayCall } from './gateway.js'
import { merchantAction, merchantStart } from './merchant.js'
import { payer3ds, payerAbandon, payerApm, payerCard, payerRedirect } from './payer.js'

type Kind = Step['step']

/** One handler per step kind: the schema's list and this table are the same list. */
export const STEP_HANDLERS: Record<Kind, StepHandler> = {
  'merchant.start': (s, c) => merchantStart(s as never, c),
  'merchant.action': (s, c) => merchantAction(s as never, c),
  'payer.card': (s, c) => payerCard(s as never, c),
  'payer.3ds': (s, c) => payer3ds(s as never, c),
  'payer.redirect': (s, c) => payerRedirect(s as never, c),
  'payer.apm': (s, c) => payerApm(s as never, c),
  'payer.abandon': () => payerAbandon(),
  'gateway.call': (s, c) => gatewayCall(s as never, c),
  'clock.advance': (s, c) => clockAdvance(s as never, c),
  'gateway.fault': (s, c) => gatewayFault(s as never, c),
  'callbacks.send': (s, c) => callbacksSend(s as never, c),
  'callbacks.duplicate': (s, c) => callbacksDuplicate(s as never, c),
  'callbacks.reorder': (s, c) => callbacksReorder(s as never, c),
  'callbacks.forge': (s, c) => callbacksForge(s as never, c),
  'callbacks.fail': (s, c) => callbacksFail(s as never, c),
  'expect.merchant_request': (s, c) => expectMerchantRequest(s as never, c),
  'expect.no_merchant_request': (s, c) => expectNoMerchantRequest(s as never, c),
  'expect.callback': (s, c) => expectCallback(s as never, c),
  'expect.no_callback': (s, c) => expectNoCallback(s as never, c),
  'expect.callback_acknowledged': (s, c) => expectAcknowledged(s as never, c),
  'expect.merchant_order': (s, c) => expectMerchantOrder(s as never, c),
  'expect.no_double_charge': (s, c) => expectNoDoubleCharge(s as never, c),
  'expect.redirect': (s, c) => expectRedirect(s as never, c),
}
