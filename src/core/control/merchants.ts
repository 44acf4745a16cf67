import type { SandboxMerchant } from '../../generated/types.js'
import { findMethod } from '../payments/methods.js'
import type { EngineContext } from '../engine/context.js'
import { fail, invalid } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { withSchemaDefaults } from '../validation/defaults.js'

const CREATE_SCHEMA = 'sandbox/merchant-create-request'

/** A merchant as the control API shows it: never its password, nor a wallet's keys. */
export function publicMerchant(merchant: SandboxMerchant) {
  return {
    key: merchant.key,
    ...(merchant.name ? { name: merchant.name } : {}),
    notification_url: merchant.notification_url,
    mids: merchant.mids,
    protocol_mapping: merchant.protocol_mapping ?? {},
    wallets: Object.keys(merchant.wallets ?? {}),
  }
}

/** Every merchant the sandbox serves: the configuration's, then those created through the control API. */
export function allMerchants(ctx: EngineContext): { merchant: SandboxMerchant; configured: boolean }[] {
  return [
    ...ctx.config.merchants.map((merchant) => ({ merchant, configured: true })),
    ...ctx.store.list('merchants').map((stored) => ({ merchant: stored.merchant, configured: false })),
  ]
}

/**
 * docs/rules.md#beyond-the-interface ("plus whatever the CLI, the terminal UI and the scenario runner need"): merchants
 * created and deleted at run time, so a conformance run against a running sandbox brings the
 * merchant settings its scenarios need (callbacks to the kit, MOTO, zero amount) instead of
 * requiring them in that sandbox's file. The body is a merchant exactly as the configuration
 * writes it (config.schema.json#/$defs/Merchant), checked as the loader checks the file (unique
 * key and MID ids, known methods), with the schema's defaults filled in. Created merchants are
 * store records: persisted with the data file, kept by a reset. Refusals change nothing.
 */
export function merchantRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/merchants',
      summary:
        'Merchants, MIDs and Protocol Mapping (never passwords): the configured ones, then those created through POST /sandbox/merchants',
      pipeline: {},
      response: 'control/merchants-response',
      handler: () =>
        jsonResponse(200, { merchants: allMerchants(ctx).map(({ merchant }) => publicMerchant(merchant)) }),
    }),
    declareControlRoute<SandboxMerchant>({
      method: 'POST',
      path: '/sandbox/merchants',
      summary:
        'Create a merchant (a configuration file merchant: key, password, notification_url, MIDs, ...), served at once; 409 for a key or MID id already in use',
      pipeline: { schema: CREATE_SCHEMA },
      response: 'control/merchant-response',
      status: 201,
      handler: ({ input: given }) => {
        const unknown = (given.mids ?? []).flatMap((mid, i) =>
          (mid.methods ?? []).flatMap((method, j) =>
            findMethod(method)
              ? []
              : [
                  {
                    path: `mids[${i}].methods[${j}]`,
                    message: `"${method}" is not a method identifier of the interface (schemas/catalogue/methods.json).`,
                    section: '2.2',
                    keyword: 'enum',
                    rule: 'method-identifiers' as const,
                  },
                ],
          ),
        )
        if (unknown.length) throw invalid(unknown)
        const existing = allMerchants(ctx)
        if (existing.some(({ merchant }) => merchant.key === given.key)) throw fail('SANDBOX_MERCHANT_EXISTS')
        const ids = given.mids.map((mid) => mid.id)
        const taken = new Set(existing.flatMap(({ merchant }) => merchant.mids.map((mid) => mid.id)))
        if (ids.some((id, i) => taken.has(id) || ids.indexOf(id) !== i))
          throw fail('SANDBOX_MERCHANT_MID_EXISTS')
        const merchant = withSchemaDefaults(CREATE_SCHEMA, given)
        ctx.store.put('merchants', { id: merchant.key, merchant, created_at: ctx.clock.now() })
        return jsonResponse(201, publicMerchant(merchant), {
          location: `/sandbox/merchants/${encodeURIComponent(merchant.key)}`,
        })
      },
    }),
    declareControlRoute({
      method: 'DELETE',
      path: '/sandbox/merchants/:key',
      summary:
        'Delete a merchant created through POST /sandbox/merchants (its payments and callbacks stay in the store); a configured merchant is refused (409)',
      pipeline: {},
      response: 'control/merchant-delete-response',
      handler: ({ params }) => {
        const key = params.key ?? ''
        if (ctx.config.merchants.some((m) => m.key === key)) throw fail('SANDBOX_MERCHANT_CONFIGURED')
        const stored = ctx.store.get('merchants', key)
        if (!stored) throw fail('SANDBOX_MERCHANT_NOT_FOUND')
        ctx.store.delete('merchants', key)
        return jsonResponse(200, { deleted: key })
      },
    }),
  ]
}
