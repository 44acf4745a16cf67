/** Every exit code the CLI uses, in one place (documented in the README, "Exit codes"). */
export const EXIT = {
  /** valid payload, all scenarios passed, clean shutdown (also on SIGINT or SIGTERM to `serve`) */
  OK: 0,
  /** invalid payload, or at least one scenario failed */
  FAILED: 1,
  /**
   * usage or configuration error: no or unknown command, kind or option, a bad option value
   * (`--port abc`), a file that cannot be read or is not JSON, a configuration or data file refused
   */
  USAGE: 2,
  /** infrastructure: a merchant or gateway could not be reached; the server could not stop cleanly */
  INFRASTRUCTURE: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** The line every --help ends with. */
export const EXIT_CODES_HELP =
  'Exit codes: 0 ok, 1 invalid or failed, 2 usage or configuration error, 3 infrastructure.'

/** A problem with how the CLI was called: printed without a stack trace, exits with EXIT.USAGE. */
export class UsageError extends Error {}

/** A numeric option (yargs turns `--port abc` into NaN): a whole number within [min, max], else a UsageError. */
export function wholeNumber(name: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined || (Number.isInteger(value) && value >= min && value <= max)) return
  const given = Number.isNaN(value) ? 'something that is not a number' : String(value)
  throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${given}`)
}
