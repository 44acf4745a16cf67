import { problemsToFailure } from '../context.js'

/** Fails the step when there is any problem, listing them all. */
export const problems = (what: string, found: string[], section?: string): void =>
  problemsToFailure(what, found, section)
