import type { ErrorObject } from 'ajv'

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'This value is not a valid email address.',
  uri: 'This value is not a valid URL.',
  date: 'This value is not a valid date.',
  'date-time': 'This value is not a valid datetime.',
  uuid: 'This is not a valid UUID.',
  ipv4: 'This is not a valid IP address.',
  ipv6: 'This is not a valid IP address.',
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * The gateway answers validation failures with Symfony-style sentences ("This value should be
 * greater than 0."); the same sentences are produced here so that messages read like the real thing.
 */
export function messageFor(error: ErrorObject): string {
  const custom = (error.parentSchema as { 'x-messages'?: Record<string, string> } | undefined)?.['x-messages']
  const override = custom?.[error.keyword]
  if (override) return override
  const p = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'x-amount-for-currency':
    case 'x-platform-forms':
      return String(p.message)
    case 'required':
    case 'dependentRequired':
      return 'This value should not be blank.'
    case 'type':
      return `This value should be of type ${String(p.type).replace(',', ' or ')}.`
    case 'minLength':
      return `This value is too short. It should have ${plural(Number(p.limit), 'character')} or more.`
    case 'maxLength':
      return `This value is too long. It should have ${plural(Number(p.limit), 'character')} or less.`
    case 'pattern':
      return 'This value is not valid.'
    case 'format':
      return FORMAT_MESSAGES[String(p.format)] ?? 'This value is not valid.'
    case 'enum':
      return enumMessage(p.allowedValues)
    case 'const':
      return `This value should be equal to ${JSON.stringify(p.allowedValue)}.`
    case 'minimum':
      return `This value should be greater than or equal to ${String(p.limit)}.`
    case 'exclusiveMinimum':
      return `This value should be greater than ${String(p.limit)}.`
    case 'maximum':
      return `This value should be less than or equal to ${String(p.limit)}.`
    case 'exclusiveMaximum':
      return `This value should be less than ${String(p.limit)}.`
    case 'minItems':
      return `This collection should contain ${plural(Number(p.limit), 'element')} or more.`
    case 'maxItems':
      return `This collection should contain ${plural(Number(p.limit), 'element')} or less.`
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'This field was not expected.'
    default:
      return 'This value is not valid.'
  }
}

/**
 * A short list names its valid values, so the merchant sees what to send: `operation: The value
 * you selected is not a valid choice. Valid values: purchase, debit, credit.` Long lists (currencies,
 * countries) keep their own `x-messages`.
 */
function enumMessage(allowed: unknown): string {
  const base = 'The value you selected is not a valid choice.'
  if (!Array.isArray(allowed) || allowed.length > 12) return base
  return `${base} Valid values: ${allowed.map((v) => String(v)).join(', ')}.`
}
