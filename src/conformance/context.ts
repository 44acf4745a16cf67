import type { CallbackChannel } from './callback-channel.js'
import type { RecordedRequest } from './curl.js'
import type { Vars } from './interpolate.js'
import type { MerchantClient } from './merchant.js'
import type { OrderView } from './observations.js'
import type { PayerControl } from './payer-control.js'
import type { PayerReturn } from './payer-return.js'
import type { HostedGateway } from './sandbox-host.js'
import { PaymentMemory } from './signing.js'
import type { LoadedScenario, Mode, Step } from './types.js'

/** Everything one scenario's steps share. One per scenario run: scenarios never share state. */
export interface ScenarioContext {
  loaded: LoadedScenario
  mode: Mode
  vars: Vars
  credentials: { merchant_key: string; password: string }
  /** The {base_url} requests go to: the kit-hosted gateway's prefix, or the external gateway. */
  gatewayUrl: string
  /** The kit-hosted gateway (merchant mode, and gateway mode on the built-in sandbox). */
  hosted?: HostedGateway
  /** An external gateway that is a paysandbox: its control API can move the clock. */
  controlApi: boolean
  /** That paysandbox's control token, sent on /sandbox/... calls. */
  controlToken?: string
  channel: CallbackChannel
  payer?: PayerControl
  merchant?: MerchantClient
  memory: PaymentMemory
  /** Sessions the scenario created, newest last. */
  sessions: { token: string; operation: string }[]
  /** The API of the latest merchant.start. */
  lastApi?: string
  /** External gateway: where the kit receives callbacks (sent as S2S `callback_url`). */
  callbackUrl?: string
  /** Kit URL a payer comes back to (success_url etc. in the kit's own requests). */
  returnUrl: string
  /** How long expectations wait for something an external gateway sends, in ms. */
  waitMs: number
  /** The request the current step made or observed: a failure prints it as a curl command. */
  request?: RecordedRequest
  orders: number
  /** Merchant mode: the order as the merchant's inspect hook showed it after the steps that changed it. */
  timeline: { label: string; order: string; view: OrderView }[]
  /**
   * The longest a gateway fault of the scenario holds an answer in real time (`late`,
   * `hold_seconds`), in ms: the merchant's hooks may take that much longer.
   */
  holdMs?: number
  /** Merchant mode: what its start_payment / merchant_action hooks answered, oldest first. */
  hooks: string[]
  /** Merchant mode: requests the kit sent itself with the merchant's key (gateway.call `in_merchant_mode`). */
  kitRequests: string[]
  /** The orders merchant.start began: order number → `10.00 EUR`. */
  orderAmounts: Record<string, string>
  /**
   * Merchant mode: what merchant.start asked the merchant for, per order number (intent,
   * src/conformance/causes.ts): the flags, and every amount asked under that number (`10.00 EUR`).
   */
  asked?: Record<
    string,
    { flags: Record<'auth' | 'recurring_init' | 'req_token', boolean>; amounts: string[] }
  >
  /**
   * Merchant mode: the callback the kit re-sent after the merchant refused it for its hash
   * (src/conformance/causes.ts): Checkout with one nested key added at a time, and the key it then
   * took; S2S signed by one mistake in the formula at a time, and the mistake it then acknowledged.
   */
  callbackProbe?: {
    index: number
    flat?: string
    nested?: string
    mistake?: { name: string; hash: string }
  }
  /** Merchant mode: what start_payment told the payer, per order number (its answer's `status`). */
  told?: Record<string, string>
  /** Merchant mode: the merchant's pages the payer came back to (term_url_3ds, return_url), oldest first. */
  returns: PayerReturn[]
  /** Merchant mode: where the merchant's start_payment says it sends its payer (the payer follows it). */
  handoff?: { redirect_url?: unknown; redirect_method?: unknown; redirect_params?: unknown; status?: unknown }
}

export function createContext(
  init: Omit<
    ScenarioContext,
    | 'memory'
    | 'sessions'
    | 'orders'
    | 'vars'
    | 'timeline'
    | 'hooks'
    | 'kitRequests'
    | 'orderAmounts'
    | 'returns'
  > & {
    vars: Vars
  },
): ScenarioContext {
  return {
    ...init,
    memory: new PaymentMemory(),
    sessions: [],
    orders: 0,
    timeline: [],
    hooks: [],
    kitRequests: [],
    orderAmounts: {},
    returns: [],
  }
}

/** Waits for the callbacks the last action caused (kit-hosted: until the queue is idle). */
export async function settle(ctx: ScenarioContext): Promise<void> {
  if (ctx.hosted) await ctx.hosted.idle()
}

/** The step fails: `message` says what is wrong; the runner adds the sections and the curl. */
export class StepFailed extends Error {
  constructor(
    message: string,
    readonly section?: string,
  ) {
    super(message)
  }
}

/**
 * The step cannot run here. `blocking`: the scenario cannot go on without it (it is then
 * reported skipped, never passed); otherwise it is a step for the other side of a `both`
 * scenario and the run goes on.
 */
export class StepSkipped extends Error {
  constructor(
    message: string,
    readonly blocking = true,
  ) {
    super(message)
  }
}

/** A handler runs one step and returns its result (what `capture` reads). */
export type StepHandler = (step: Step, ctx: ScenarioContext) => Promise<unknown>

export const fail = (message: string, section?: string): never => {
  throw new StepFailed(message, section)
}

/** The first problem leads the headline (`what: problem`); with several, all follow as a list. */
export const problemsToFailure = (what: string, problems: string[], section?: string): void => {
  if (problems.length === 1) throw new StepFailed(`${what}: ${problems[0]}`, section)
  if (problems.length)
    throw new StepFailed(`${what}: ${problems[0]}\n  - ${problems.join('\n  - ')}`, section)
}
