import type { SandboxMerchantAdapter } from '../generated/types.js'

/**
 * The merchant contract (docs/conformance.md, The merchant contract): what the kit may call on a
 * merchant's adapter and read from its answers, by contract version. An adapter declares the
 * version it was written to (`contract`, absent: 1) and, optionally, what it implements
 * (`supports`); a scenario needs what its steps use (profile.ts) and what it declares (`needs`).
 * A scenario that needs something the adapter does not declare is not run, with the need's name:
 * the kit never calls a hook or reads a field the adapter's contract does not include.
 */

export const CONTRACT_VERSIONS = [1, 2] as const
export type ContractVersion = (typeof CONTRACT_VERSIONS)[number]
export const LATEST_CONTRACT: ContractVersion = 2

interface Capability {
  /** The contract version that introduced it. */
  since: ContractVersion
  /** How a report names it: "your adapter declares no <what>". */
  what: string
  /** Declared by the adapter's own key (a hook) or its `flows`, not by `supports`. */
  declaredBy?: 'hook' | 'flows'
  /** What a later version added to its meaning, by version. */
  later?: Partial<Record<ContractVersion, string>>
}

export const CAPABILITIES = {
  merchant_action: { since: 1, what: '`merchant_action` hook', declaredBy: 'hook' },
  inspect: { since: 1, what: '`inspect` hook', declaredBy: 'hook' },
  return_pages: { since: 1, what: 'return pages of its own (`expect.redirect` with `follow`)' },
  capture: { since: 1, what: '`capture` action' },
  refund: { since: 1, what: '`refund` action' },
  void: {
    since: 1,
    what: '`void` action',
    later: {
      2: 'cancels the payment on any day: VOID on its financial day, a refund after, a held authorization released by a refund',
    },
  },
  status: {
    since: 1,
    what: '`status` action',
    later: {
      2: 'looks an order with several payments up by `order_id` with `size` (or each payment by `payment_id`) and books the one that settled',
    },
  },
  recurring: { since: 1, what: '`recurring` action' },
  payouts: {
    since: 2,
    what: 'payouts (start_payment `operation` `credit` or `CREDIT2CARD`)',
    declaredBy: 'flows',
  },
  handoff: { since: 2, what: '`redirect_method` and `redirect_params` in the start_payment answer' },
  'inspect.payment_id': { since: 2, what: '`payment_id` in the inspect answer' },
  'inspect.recurring_token': { since: 2, what: '`recurring_token` in the inspect answer' },
} as const satisfies Record<string, Capability>

export type CapabilityId = keyof typeof CAPABILITIES

/** A need: a capability, at the contract version whose meaning of it the scenario relies on. */
export interface Need {
  id: CapabilityId
  version: ContractVersion
}

const capability = (id: CapabilityId): Capability => CAPABILITIES[id]
const isId = (id: string): id is CapabilityId => Object.hasOwn(CAPABILITIES, id)

/** `void` or `void@2` (a scenario's `needs`) → the need; undefined for an unknown name. */
export function parseNeed(text: string): Need | undefined {
  const [id = '', at] = text.split('@')
  if (!isId(id)) return undefined
  const version = at === undefined ? capability(id).since : Number(at)
  if (!CONTRACT_VERSIONS.includes(version as ContractVersion) || version < capability(id).since)
    return undefined
  return { id, version: version as ContractVersion }
}

export const needName = (need: Need): string =>
  need.version > capability(need.id).since ? `${need.id}@${need.version}` : need.id

/** What an adapter declares: its contract version and the capabilities it implements. */
export interface Declaration {
  contract: ContractVersion
  supports: ReadonlySet<CapabilityId>
}

/** The names `supports` takes (the hooks are declared by their own keys, payouts by `flows`). */
export const SUPPORTS_NAMES = (Object.keys(CAPABILITIES) as CapabilityId[]).filter(
  (id) => !('declaredBy' in CAPABILITIES[id]),
)

/**
 * The adapter's declaration, or the problems with it (a `supports` name newer than its contract).
 * Without `supports` it implements everything its contract version describes.
 */
export function declarationOf(
  adapter: Pick<SandboxMerchantAdapter, 'contract' | 'supports' | 'merchant_action' | 'inspect'>,
): { declaration: Declaration; problems: string[] } {
  const contract = (adapter.contract ?? 1) as ContractVersion
  const problems: string[] = []
  const supports = new Set<CapabilityId>()
  const listed = adapter.supports as string[] | undefined
  for (const name of listed ?? SUPPORTS_NAMES) {
    if (!isId(name)) continue
    if (capability(name).since > contract) {
      if (listed)
        problems.push(
          `supports: "${name}" is in contract ${capability(name).since}; this adapter declares contract ${contract} (set "contract": ${capability(name).since})`,
        )
      continue
    }
    supports.add(name)
  }
  if (adapter.merchant_action) supports.add('merchant_action')
  if (adapter.inspect) supports.add('inspect')
  if (contract >= capability('payouts').since) supports.add('payouts')
  return { declaration: { contract, supports }, problems }
}

/** Every capability of the latest contract: a merchant client built in code, with no adapter file. */
export const FULL_DECLARATION: Declaration = {
  contract: LATEST_CONTRACT,
  supports: new Set(Object.keys(CAPABILITIES) as CapabilityId[]),
}

/**
 * Why the adapter cannot serve this need (undefined: it can): the reason a report prints, and a
 * short label its summary groups the scenarios by.
 */
export function unmet(
  need: Need,
  declaration: Declaration,
): { reason: string; label: string; name: string } | undefined {
  const { what } = capability(need.id)
  const mine = declaration.contract
  if (need.version > mine) {
    const meaning = capability(need.id).later?.[need.version]
    return {
      reason: meaning
        ? `the scenario needs the ${what} as contract ${need.version} describes it (it ${meaning}); your adapter is written to contract ${mine}`
        : `the scenario needs ${what}, which contract ${need.version} added; your adapter is written to contract ${mine}`,
      label: `${what} of contract ${need.version} (your adapter: contract ${mine})`,
      name: needName(need),
    }
  }
  if (!declaration.supports.has(need.id))
    return {
      reason: `your adapter declares no ${what}`,
      label: `your adapter declares no ${what}`,
      name: need.id,
    }
  return undefined
}

/** Whether the adapter declares the capability (the steps' guard: never call or read anything else). */
export const declares = (declaration: Declaration | undefined, id: CapabilityId): boolean =>
  !declaration || declaration.supports.has(id)
