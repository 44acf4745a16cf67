/** Every exit code the CLI uses, in one place (documented in the README). */
export const EXIT = {
  /** valid payload, all scenarios passed, clean shutdown */
  OK: 0,
  /** invalid payload, or at least one scenario failed */
  FAILED: 1,
  /** usage or configuration error: unknown command, kind or option, unreadable file */
  USAGE: 2,
  /** infrastructure: a merchant or gateway could not be reached */
  INFRASTRUCTURE: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** A problem with how the CLI was called: printed without a stack trace, exits with EXIT.USAGE. */
export class UsageError extends Error {}
