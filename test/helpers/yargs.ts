import type { CommandModule } from 'yargs'
import yargs from 'yargs'

/**
 * What yargs hands `command`'s handler for `args` (the words after the command's name), its
 * refusals thrown: the reference the CLI's fast paths (cli/fast-options.ts) are compared with.
 */
export async function throughYargs<A>(command: CommandModule<object, A>, args: string[]): Promise<A> {
  let seen: A | undefined
  const name = String(command.command).split(' ')[0] as string
  await yargs([name, ...args])
    .command({
      ...command,
      handler: (a) => {
        seen = a as A
      },
    })
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message)
    })
    .parseAsync()
  if (!seen) throw new Error(`yargs did not run ${name}`)
  return seen
}
