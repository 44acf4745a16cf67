// A TypeScript merchant project using `paysandbox/msw` (msw installed), checked with `tsc --noEmit`.
import type { HttpHandler } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox } from 'paysandbox'
import { createMswHandlers, type MswHandlerOptions, mswHandlers } from 'paysandbox/msw'

export async function server(base: string): Promise<ReturnType<typeof setupServer>> {
  const sandbox = await createSandbox({ baseUrl: base })
  const options: MswHandlerOptions = { remoteAddress: '10.0.0.1' }
  const handlers: HttpHandler[] = [
    ...mswHandlers(sandbox, base, options),
    ...createMswHandlers(sandbox.gateway, `${base}/second`),
  ]
  return setupServer(...handlers)
}
