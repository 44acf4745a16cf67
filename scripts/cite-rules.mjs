#!/usr/bin/env node
/**
 * Rewrites every citation of the old, external rule book into a citation of the project's own,
 * docs/rules.md, by a stable anchor:
 *
 *   "<old> §2", "<old> section 2", "<old> 2", "<old> 1 and 3", "<old> §4 (sandbox)",
 *   "(<old> 3, changed)", a plain "<old>", and the regex-escaped form in tests
 *
 * become `docs/rules.md#<anchor>`. The anchor is the section's (signatures, transport, callbacks,
 * test-data, sessions, beyond-the-interface, warnings-and-releases), or a finer one of that
 * section when the words right after the citation (a qualifier such as "Amounts", or a ": …"
 * clause) name one rule unambiguously. A citation that is a whole value (a `section` field, a
 * regular expression in a test) always gets the section's anchor, so the kit's values and the
 * tests that match them stay in step.
 *
 *   node scripts/cite-rules.mjs           rewrite the files of the repository (tracked and new)
 *   node scripts/cite-rules.mjs --check   list what would change, exit 1 if anything would
 *
 * Idempotent: after a run no file names the old rule book, so a second run changes nothing. The
 * old name is built from parts so that this script does not name it either. Generated files
 * (src/generated, openapi/) are rewritten like their sources; `npm run gen -- --check` confirms.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'

const OLD = ['decisions', 'md'].join('.')
const OLD_RE = ['decisions', 'md'].join('\\.')
/** The old evidence file, cited by its sections: each becomes the public document it quoted. */
const EVIDENCE = ['platform', 'facts'].join('-')
const EVIDENCE_SECTIONS = {
  1: "the platform's error catalogue in S2S CARD 5.6.2",
  2: 'HPF 1.0.0',
  3: "the platform's callback pages",
  4: 'S2S CARD 5.6.2',
  5: 'S2S APM 3.6.2',
  6: "the platform's documents",
  7: "the platform's documents",
}
const EVIDENCE_CITATION = new RegExp(String.raw`${EVIDENCE}(?:\.md)?(?:\s+§?([1-7])(?![0-9]))?`, 'g')

/** Section numbers of the old rule book → the section anchors of docs/rules.md. */
export const SECTIONS = {
  1: 'signatures',
  2: 'transport',
  3: 'callbacks',
  4: 'test-data',
  5: 'sessions',
  6: 'beyond-the-interface',
  7: 'warnings-and-releases',
}

/**
 * Finer anchors per section, first match wins, tried on the words right after the citation only.
 * Every anchor named here exists in docs/rules.md (the rule-citations test checks the output).
 */
export const FINER = {
  1: [
    [/known answer|2702ae0c/i, 'known-answer'],
    [/sha256/i, 'sha256'],
    [/S2S APM|CREDIT2VIRTUAL|CREDIT2CRYPTO|DEBIT2VIRTUAL|keys sorted|APM callbacks/i, 's2s-apm-signatures'],
    [
      /formula|CARD2CARD|CREDIT2CARD|CREATE_SCHEDULE|other schedule|GET_TRANS|CAPTURE, VOID|SALE|S2S CARD|md5\(upper\(rev/i,
      's2s-card-formulas',
    ],
    [/upper\(\)|upper-case|strtoupper|optional field|drops out/i, 'signature-conventions'],
    [
      /checkout|sha1|session formula|callback and redirect|capture, refund|void, retry|recurring \||credit \(/i,
      'checkout-signatures',
    ],
  ],
  2: [
    [
      /card credit|card\/credit|card_number or (by )?(a )?card_token|identify the card|the card by card_number/i,
      'card-credit',
    ],
    [/amounts?\b|decimals|exponent|JPY|VND|yen/i, 'amounts'],
    [/booleans?|"true"|numeric (string|field)/i, 'booleans'],
    [/base.path/i, 'base-path'],
    [
      /method identifiers|identifiers, the catalogue|alias|wallet1|applepay|googlepay|unknown identifier|device wallets/i,
      'method-identifiers',
    ],
    [/array of one/i, 'card-token-form'],
    [/card_token` is 64|64 hex|UUID|recurring_token` is|date-times|dates /i, 'identifiers'],
    [/catalogue|20[458]\d{3}|duplicate request|business (refusal|code)/i, 'business-codes'],
    [
      /error|envelope|request data is invalid|hash is not valid|bad hash|validation|refus|merchant_key|401|403|errors\[\]|http_code/i,
      'errors',
    ],
    [
      /statuses|lowercase|uppercase|session: `|token: `|refund and retry|void: |recurring: `|status: `|capture: `|retry: `|refund: `|card credit: accepted|result` is|result is|ACCEPTED|REDIRECT \(|S2S: `\{action|customer\{name|answers/i,
      'responses',
    ],
    [
      /\/post|form-urlencoded|multipart|endpoints|paths|\/api\/v1|collection|every route|S2S requests are/i,
      'endpoints',
    ],
  ],
  3: [
    [/partial refund/i, 'partial-refunds'],
    [/block|time-outs within/i, 'url-blocking'],
    [/checkout_payment_method/i, 'checkout-payment-method'],
    [/extended|extra_gateway|issuer_|connector_name|flat fields/i, 'extended-data'],
    [/retr(y|ies)|advancing the clock/i, 'retries'],
    [/never waiting|creation order|order they were|each callback goes out/i, 'delivery'],
    [/acknowledg|`OK`|2xx|time-?out|10 s|failed attempt/i, 'acknowledgement'],
    [/notification_url|callback_url|destination|255 char/i, 'callback-destination'],
    [/form-urlencoded|bracket|flat keys|spaces as|sent as `POST`/i, 'callback-format'],
    [/every attempt is logged|logged|replay/i, 'callback-log'],
    [/creditvoid|S2S CARD callback|S2S APM callback|`redirect_url`, `re/i, 's2s-callback-fields'],
    [
      /checkout callback fields|customer_ip|`type`|order_status|status success|status=success|waiting/i,
      'checkout-callback-fields',
    ],
  ],
  4: [
    [/vcard|success@gmail|fail@gmail|identifier or e-mail/i, 'apm-test-brand'],
    [/\.51|soft decline|softly|RETRY/, 'recurring-test-amounts'],
    [/simulat|approve, decline|every other method|no simulator/i, 'simulated-connectors'],
    [
      /4111|4601541833776519|1111222233334444|month|card|declined by processing|3DS then|redirect then|authorization succ|0[1-6] |12 /i,
      'test-cards',
    ],
  ],
  5: [
    [/session\/update|session update|can not be updated|new amount or currency/i, 'session-update'],
    [/page token|not the session token/i, 'page-token'],
    [
      /hosted|HPF|Token|return_url|collectIframesData|fields' (script|frames)|card data goes|session-token req|with_hosted_fields|`result`|result: success/i,
      'hosted-payment-fields',
    ],
    [/session_expiry|expiry|minutes|clock|hosted page lives/i, 'session-expiry'],
  ],
  6: [
    [/schedul|payments_count|interval_unit|day_of_month|DESCHEDULE|\bweek\b/i, 'schedules'],
    [/DEBIT2VIRTUAL|CREDIT2VIRTUAL|CREDIT2CRYPTO|S2S APM/i, 's2s-apm-actions'],
    [
      /CREDIT2CARD|GET_TRANS_DETAILS|RETRY|payout to a card|softly|recurring_first_trans/i,
      's2s-card-actions',
    ],
    [/control API|\/sandbox\/|payer actions|merchants stay/i, 'control-api'],
    [/\bport\b|8080|npm start|--port|health|SIGTERM|SIGINT|ready when/i, 'start'],
    [
      /merchant|\bkey\b|password|config|without a file|demo|notification_url|mids|admin panel|moto|card_on_file/i,
      'configuration',
    ],
  ],
  7: [
    [/release|6\.6\.5|6\.7\.0|versioning|before 6/i, 'releases'],
    [/strict/i, 'strict'],
    [/warn/i, 'warnings'],
  ],
}

/** "§2", "section 2", "2" */
const NUM = String.raw`(?:§\s?|section\s+)?([1-7])(?![0-9]|\.[0-9])`
/** The citation: the old name, an optional line break inside a comment, numbers joined by "and" or commas. */
const CITATION = new RegExp(
  String.raw`([ \t]*)(${OLD_RE}|${OLD_RE.replace('\\.', '\\\\\\.')})('s)?` +
    String.raw`(?:([ \t]*(?:\r?\n[ \t]*(?:\*|\/\/|#)?[ \t]*)?)(${NUM}(?:\s*(?:,|and|&)\s*(?:§\s?|section\s+)?[1-7](?![0-9]|\.[0-9]))*))?`,
  'g',
)

/** Qualifiers naming a subsection of the old book, dropped once the anchor names it. */
const QUALIFIER_NAMES = 'Amounts|Booleans and numeric fields|Booleans|Method identifiers|Errors'
const QUALIFIER = new RegExp(String.raw`^(?:\s*\((${QUALIFIER_NAMES})\)|[ ,]\s*(${QUALIFIER_NAMES})\b)`)

function anchorFor(section, after) {
  for (const [pattern, anchor] of FINER[section] ?? []) if (pattern.test(after)) return anchor
  return SECTIONS[section]
}

/** The words right after a citation that describe the rule: a qualifier, or a ": …" clause. */
function describingWords(rest) {
  const line = rest.split('\n')[0]
  const q = QUALIFIER.exec(line)
  if (q) return q[1] ?? q[2]
  const m = /^(?:\s*\((?:sandbox|platform rule|changed|new)\))?\s*:\s*(.*)$/.exec(line)
  if (!m) return ''
  // The clause ends with the sentence or the parenthesis that holds it.
  return m[1].split(/\)\s*[.;,]|\. |\)$|;\s/)[0].slice(0, 160)
}

function rewrite(text, file) {
  const markdown = file.endsWith('.md')
  const inDocs = file.startsWith('docs/')
  let changed = 0
  // "(or `<old> N`)": a placeholder for any rule.
  const placeholder = text.replaceAll(`${OLD} N\``, 'docs/rules.md#<anchor>`')
  const evidence = placeholder.replace(EVIDENCE_CITATION, (_m, n) =>
    n ? EVIDENCE_SECTIONS[n] : "the platform's documents (docs/rules.md#sources)",
  )
  const out = evidence.replace(CITATION, (match, lead, name, possessive, gap, refs, _first, at, whole) => {
    changed++
    const offset = at + lead.length
    const escaped = name !== OLD
    const before = whole.slice(Math.max(0, offset - 1), offset)
    const rest = whole.slice(at + match.length)
    const base = escaped ? String.raw`docs\/rules\.md` : 'docs/rules.md'
    if (!refs) {
      // A plain mention: the rule book itself.
      return `${lead}${escaped ? String.raw`docs\/rules\.md` : link('docs/rules.md', markdown, inDocs, whole, offset)}${possessive ?? ''}`
    }
    const numbers = [...refs.matchAll(/[1-7]/g)].map((m) => Number(m[0]))
    // A whole value ("section": "<old> 3", a regular expression): the section's anchor only.
    const wholeValue = escaped || (/^['"`]/.test(before) && /^['"`/]/.test(rest))
    const words = wholeValue || numbers.length > 1 ? '' : describingWords(rest)
    const anchors = numbers.map((n, i) => (i === 0 && words ? anchorFor(n, words) : SECTIONS[n]))
    // A citation broken over two lines (in a comment) moves to the second line, where its number was.
    const gapText = gap?.includes('\n') ? gap : ''
    const cited = anchors
      .map((a) => (escaped ? `${base}#${a}` : link(`docs/rules.md#${a}`, markdown, inDocs, whole, offset)))
      .join(' and ')
    return `${gapText || lead}${cited}${possessive ?? ''}`
  })
  return { text: tidy(out), changed: changed + (evidence === text ? 0 : 1) }
}

/**
 * Second pass, also over files rewritten before (idempotent): drop the old edition's words and
 * the qualifiers the anchor now names, and turn a bare "§N" left on a citation's line (the old
 * book's second section, "…; soft decline of §4") into its anchor.
 */
function tidy(text) {
  const lines = text.replace(
    new RegExp(
      String.raw`((?:(?:docs\/)?rules\.md|docs\\\/rules\\\.md)(?:#[a-z0-9-]+)?(?:\))?)(\s*\((?:changed|new)\)|,\s*(?:changed|second edition)|\s*\(second edition\))?(\s*\((?:${QUALIFIER_NAMES})\)|[ ,]\s*(?:${QUALIFIER_NAMES})\b)?`,
      'g',
    ),
    (m, cite, edition, qualifier) => (edition || qualifier ? cite : m),
  )
  return lines
    .split('\n')
    .map((line) =>
      /rules\.md#/.test(line)
        ? line.replace(/§([1-7])(?![0-9])/g, (_m, n) => `docs/rules.md#${SECTIONS[n]}`)
        : line,
    )
    .join('\n')
}

/** In markdown prose (not in code), a citation is a link; elsewhere plain text. */
function link(target, markdown, inDocs, whole, offset) {
  if (!markdown) return target
  const lineStart = whole.lastIndexOf('\n', offset - 1) + 1
  const linePrefix = whole.slice(lineStart, offset)
  const ticks = (linePrefix.match(/`/g) ?? []).length
  const fence = (whole.slice(0, offset).match(/^```/gm) ?? []).length
  if (ticks % 2 === 1 || fence % 2 === 1 || /\]\($/.test(linePrefix) || /\[$/.test(linePrefix)) return target
  const href = inDocs ? target.replace(/^docs\//, '') : target
  return `[${target}](${href})`
}

function repositoryFiles(root) {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root })
    .toString()
    .split('\0')
    .filter(Boolean)
  return listed.filter((f) => !f.startsWith('node_modules/'))
}

function main() {
  const check = process.argv.includes('--check')
  const root = resolve(import.meta.dirname, '..')
  const self = relative(root, import.meta.filename)
  let files = 0
  let citations = 0
  const written = []
  for (const file of repositoryFiles(root)) {
    if (file === self) continue
    let text
    try {
      text = readFileSync(resolve(root, file), 'utf8')
    } catch {
      continue
    }
    if (text.includes('\0')) continue
    const old = text.includes(OLD) || text.includes(OLD_RE) || text.includes(EVIDENCE)
    if (!old && !text.includes('rules.md#')) continue
    const result = old ? rewrite(text, file) : { text: tidy(text), changed: 0 }
    if (result.text === text) continue
    files++
    citations += result.changed
    if (check) process.stdout.write(`${file}: ${result.changed}\n`)
    else {
      writeFileSync(resolve(root, file), result.text)
      written.push(file)
    }
  }
  // A citation longer than the old one can push a line past the formatter's width.
  const code = written.filter((f) => /\.(ts|tsx|mjs|js)$/.test(f))
  if (code.length)
    try {
      execFileSync('npx', ['biome', 'format', '--write', ...code], { cwd: root, stdio: 'ignore' })
    } catch {
      process.stdout.write('biome format failed: run `npx biome format --write` on the rewritten files\n')
    }
  process.stdout.write(
    `${check ? 'would rewrite' : 'rewrote'} ${citations} citation(s) in ${files} file(s)${files && !check ? '; run `npm run gen -- --check` and the rule-citations test' : ''}\n`,
  )
  if (check && files) process.exitCode = 1
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) main()

export { rewrite }
