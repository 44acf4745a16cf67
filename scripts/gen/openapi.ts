import { bundle, type Json, type JsonObject, type SchemaFile } from './bundle.js'

export interface Endpoint {
  method: string
  path: string
  contentType: string
  response?: string
  responseV2?: string
  summary?: string
  action?: string
  headers?: string[]
  /**
   * Other paths that accept the same request, exactly as written (no `/v2/post` twin): the S2S APM
   * debits and payouts "also accepted at `/post`" (docs/rules.md#transport).
   */
  alsoAt?: string[]
}

const REF = '#/components/schemas/'
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

const SANDBOX_CHOICES = `
Choices the sandbox makes where the interface says "not shown" (see docs/rules.md in the repository):

- Checkout signatures: \`sha1(md5(upper(FIELDS)))\`; S2S CARD and S2S APM signatures per action.
- S2S CARD is served at \`POST /post\` (and \`/v2/post\`, where \`redirect_params\` is an array of \`{name, value}\`);
  S2S APM at \`POST /post-va\`; both form-urlencoded (multipart accepted), nested fields in bracket notation.
  DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC, DEBIT2VIRTUAL_COMPLETE, CREDIT2VIRTUAL and CREDIT2CRYPTO are also accepted at
  \`POST /post\` (docs/rules.md#endpoints: the vendor's own collection sends them there).
- Checkout void, refund, recurring, retry and status live at \`/api/v1/payment/{void,refund,recurring,retry,status}\`.
- Validation errors: \`{http_code, error_code, error_message, errors: [{error_code, error_message}]}\` with messages
  in the form \`field.path: message\`.
- Amounts must carry exactly the decimals of their currency's ISO 4217 minor unit (\`100\` JPY, \`100.00\` USD,
  \`100.000\` KWD).
- \`session_expiry\` is in minutes, 1 to 720, default 60. Callback retries after 1 min, 5 min, 15 min, 1 h, 6 h, 24 h.
`.trim()

function endpointsOf(files: SchemaFile[]): { endpoint: Endpoint; file: SchemaFile }[] {
  return (
    files
      // A response schema's `x-endpoint` only names the routes it answers (`responseOf`): not a request.
      .filter((f) => (f.schema['x-endpoint'] as JsonObject | undefined)?.method)
      .map((f) => ({ endpoint: f.schema['x-endpoint'] as unknown as Endpoint, file: f }))
  )
}

const ref = (title: string): JsonObject => ({ $ref: `${REF}${title}` })

function titleOf(files: SchemaFile[], path: string | undefined): string | undefined {
  if (!path) return undefined
  const file = files.find((f) => f.path === path)
  if (!file) throw new Error(`x-endpoint response ${path} is not a schema file`)
  return file.title
}

function oneOrMany(titles: string[], discriminator?: string, mapping?: Record<string, string>): JsonObject {
  const unique = [...new Set(titles)]
  if (unique.length === 1) return ref(unique[0] as string)
  const schema: JsonObject = { oneOf: unique.map(ref) }
  if (discriminator)
    schema.discriminator = mapping
      ? { propertyName: discriminator, mapping }
      : { propertyName: discriminator }
  return schema
}

/** The `action` values a request schema accepts: its `const`, or every name of its `enum` (aliases). */
function actionValues(file: SchemaFile): string[] {
  const action = (file.schema.properties as JsonObject | undefined)?.action as JsonObject | undefined
  if (typeof action?.const === 'string') return [action.const]
  return Array.isArray(action?.enum) ? action.enum.filter((v): v is string => typeof v === 'string') : []
}

/**
 * `action` value -> request schema, for the discriminator of an S2S path: every value the path
 * accepts (the platform's aliases such as `PAUSE_SCHEDULE` included). Two schemas claiming one value
 * on one path would make the document ambiguous: the generator refuses.
 */
function actionMapping(path: string, files: SchemaFile[]): Record<string, string> {
  const mapping: Record<string, string> = {}
  for (const file of files) {
    for (const value of actionValues(file)) {
      const target = `${REF}${file.title}`
      if (mapping[value] && mapping[value] !== target)
        throw new Error(`${path}: action ${value} is claimed by ${mapping[value]} and ${target}`)
      mapping[value] = target
    }
  }
  return Object.fromEntries(Object.entries(mapping).sort(([a], [b]) => a.localeCompare(b)))
}

/** An engine route as the generator sees it (src/core/engine/modules.ts RouteDefinition). */
export interface EngineRoute {
  method: string
  path: string
  api: string
  summary?: string
  query?: string
  request?: string
  /** Schema of a successful JSON answer (the control routes' schemas/control/). */
  response?: string
  /** Status of a successful answer when not 200 (declareControlRoute `status`: 201, 202). */
  status?: number
}

/** A declared signing formula (src/core/signing/declared.ts): its name and what it hashes. */
export interface FormulaInfo {
  id: string
  text: string
}

/** The declared formulas: Checkout by path, S2S CARD and S2S APM by action. */
export interface Signings {
  checkout: Record<string, FormulaInfo>
  's2s-card': Record<string, FormulaInfo>
  's2s-apm': Record<string, FormulaInfo>
}

/** The formula of one request schema's endpoint, read from the declarations. */
function formulaOf(
  signings: Signings | undefined,
  endpoint: Endpoint,
  file: SchemaFile,
): FormulaInfo | undefined {
  if (!signings) return undefined
  if (endpoint.path.startsWith('/api/')) return signings.checkout[endpoint.path]
  const table = endpoint.path === '/post-va' ? signings['s2s-apm'] : signings['s2s-card']
  for (const action of [...actionValues(file), ...(endpoint.action ? [endpoint.action] : [])])
    if (table[action]) return table[action]
  return undefined
}

/**
 * OpenAPI 3.1 for every endpoint that a request schema declares with `x-endpoint`, plus every
 * other route the engine serves (control API, hosted pages), from its route definition. Each
 * operation lists the signature formulas its routes and actions declare (`x-signatures`).
 */
export function generateOpenApi(
  files: SchemaFile[],
  version: string,
  engineRoutes: EngineRoute[] = [],
  signings?: Signings,
): JsonObject {
  const groups = new Map<string, { endpoint: Endpoint; file: SchemaFile }[]>()
  for (const item of endpointsOf(files)) {
    const paths = item.endpoint.path === '/post' ? ['/post', '/v2/post'] : [item.endpoint.path]
    for (const path of [...paths, ...(item.endpoint.alsoAt ?? [])]) {
      const key = `${item.endpoint.method.toLowerCase()} ${path}`
      groups.set(key, [...(groups.get(key) ?? []), item])
    }
  }
  const paths: Record<string, JsonObject> = {}
  for (const [key, items] of [...groups.entries()].sort()) {
    const [method, path] = key.split(' ') as [string, string]
    const first = items[0]?.endpoint as Endpoint
    const isV2 = path === '/v2/post'
    const requestTitles = items.map((i) => i.file.title)
    const responseTitles = items
      .map((i) => titleOf(files, (isV2 && i.endpoint.responseV2) || i.endpoint.response))
      .filter((t): t is string => Boolean(t))
    const actions = items.map((i) => i.endpoint.action).filter(Boolean)
    const contentTypes = first.contentType === 'application/json' ? ['application/json'] : FORM_TYPES
    const mapping = actions.length
      ? actionMapping(
          path,
          items.map((i) => i.file),
        )
      : undefined
    const requestSchema = oneOrMany(requestTitles, actions.length ? 'action' : undefined, mapping)
    const headers = [...new Set(items.flatMap((i) => i.endpoint.headers ?? []))]
    const operation: JsonObject = {
      operationId: operationId(method, path),
      summary: mapping ? `Actions: ${Object.keys(mapping).join(', ')}` : (first.summary ?? path),
      description: items
        .map((i) => {
          const names = actionValues(i.file)
          const name = names.length ? names.join(' or ') : (i.endpoint.action ?? i.file.title)
          const elsewhere =
            i.endpoint.path !== path && path !== '/v2/post' ? ` (also at ${i.endpoint.path})` : ''
          return `- ${name}: ${i.endpoint.summary ?? ''}${elsewhere}`
        })
        .sort()
        .join('\n'),
      // /post serves S2S CARD and, for the APM debits and payouts, S2S APM: both tags.
      tags: [...new Set([tagOf(path), ...items.map((i) => tagOf(i.endpoint.path))])],
      requestBody: {
        required: true,
        content: Object.fromEntries(contentTypes.map((c) => [c, { schema: requestSchema }])),
      },
      responses: {
        '200': {
          description: 'Answer of the operation',
          content: { 'application/json': { schema: responseTitles.length ? oneOrMany(responseTitles) : {} } },
        },
        '400': errorResponse('Invalid request, failed authentication, or a refused operation'),
        '413': errorResponse('Body larger than the sandbox accepts'),
      },
    }
    const formulas = Object.fromEntries(
      items
        .flatMap((i) => {
          const formula = formulaOf(signings, i.endpoint, i.file)
          const names = actionValues(i.file)
          const name = names.length ? names.join(' or ') : (i.endpoint.action ?? path)
          return formula ? [[name, { id: formula.id, formula: formula.text }]] : []
        })
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    )
    if (Object.keys(formulas).length) operation['x-signatures'] = formulas
    if (headers.length) {
      operation.parameters = headers.map((name) => ({
        name,
        in: 'header',
        required: true,
        schema: { type: 'string' },
        description: name === 'Token' ? 'Session token from POST /api/v1/session/token' : name,
      }))
    }
    paths[path] = { ...(paths[path] ?? {}), [method]: operation }
  }
  for (const route of engineRoutes) addEngineRoute(paths, route, files)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment gateway interface (paysandbox)',
      version,
      description: `GENERATED by \`npm run gen\` from schemas/. Do not edit by hand.\n\n${SANDBOX_CHOICES}`,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: 'http://localhost:8080{basePath}',
        description:
          'paysandbox serve (default port); `--base-path /payment` serves every route under the prefix',
        variables: {
          basePath: {
            default: '',
            description:
              'docs/rules.md#base-path: the optional base path of white-label deployments, e.g. /payment',
          },
        },
      },
    ],
    paths: paths as unknown as Json,
    components: { schemas: bundle(files, REF, ['x-endpoint']) as unknown as Json },
  }
}

/** A refusal: the platform's envelope, and the rule beside it (docs/rules.md#rule-book). */
function errorResponse(description: string): JsonObject {
  return {
    description,
    headers: {
      'Sandbox-Rule': {
        description:
          'docs/rules.md#rule-book: the rule the sandbox applied, `docs/rules.md#<anchor>; field=<path>[; formula=<id>]` (the sandbox only; the platform sends none)',
        schema: { type: 'string', pattern: '^docs/rules\\.md#[a-z0-9-]+' },
      },
    },
    content: { 'application/json': { schema: ref('ErrorResponse') } },
  }
}

function tagOf(path: string): string {
  if (path.startsWith('/api/v1/')) return 'Checkout'
  if (path === '/post-va') return 'S2S APM'
  if (path.endsWith('/post')) return 'S2S CARD'
  return 'Sandbox'
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^a-zA-Z0-9]+/).filter(Boolean)
  return [method, ...words.map((w) => w[0]?.toUpperCase() + w.slice(1))].join('')
}

/** `/sandbox/payments/:id` -> `/sandbox/payments/{id}` with its path parameter. */
function addEngineRoute(paths: Record<string, JsonObject>, route: EngineRoute, files: SchemaFile[]): void {
  const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}')
  const method = route.method.toLowerCase()
  if (paths[path]?.[method]) return
  const parameters: JsonObject[] = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
    name: m[1] as string,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  if (route.query) {
    const file = files.find((f) => f.path === route.query)
    if (!file) throw new Error(`route ${route.path}: query schema ${route.query} is not a schema file`)
    const required = new Set((file.schema.required as string[] | undefined) ?? [])
    for (const name of Object.keys((file.schema.properties as JsonObject | undefined) ?? {})) {
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: { $ref: `${REF}${file.title}/properties/${name}` },
      })
    }
  }
  const contentType =
    route.api === 'page' ? 'text/html' : path === '/sandbox/events' ? 'text/event-stream' : 'application/json'
  const operation: JsonObject = {
    operationId: operationId(method, path),
    summary: route.summary ?? `${route.method} ${path}`,
    tags: [route.api === 'page' ? 'Hosted pages' : tagOf(path)],
    responses: {
      // The status the route declares for its successful answer (201 created, 202 accepted), else 200.
      [String(route.status ?? 200)]: {
        description: route.summary ?? 'Answer',
        content: {
          [contentType]: { schema: route.response ? ref(titleOf(files, route.response) as string) : {} },
        },
      },
      ...(route.api === 'page'
        ? {}
        : { '400': errorResponse('Invalid request'), '404': errorResponse('Not found') }),
    },
  }
  if (parameters.length) operation.parameters = parameters
  if (route.request) {
    const title = titleOf(files, route.request) as string
    operation.requestBody = { required: false, content: { 'application/json': { schema: ref(title) } } }
  }
  paths[path] = { ...(paths[path] ?? {}), [method]: operation }
}
