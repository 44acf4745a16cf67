import yargs from 'yargs'
import { describe, expect, it } from 'vitest'
import { type TuiArgs, tuiCommand } from '../../cli/commands/tui.js'
import { TUI_OPTIONS, tuiArgs } from '../../cli/tui-options.js'
import { throughYargs as throughYargsOf } from '../helpers/yargs.js'

/**
 * `paysandbox tui` reads its options with node's parseArgs when it can (issue 14: "Start-up under
 * a second on the same machine as `serve`"; yargs is a good part of it). What it reads must be
 * what yargs reads for the same words, and whatever it cannot read the same way, or yargs
 * refuses, must go to yargs (undefined).
 */
const throughYargs = (args: string[]) => throughYargsOf(tuiCommand, args)

/** Only the options of the command: yargs adds `_`, `$0` and camelCase copies. */
const optionsOf = (args: TuiArgs) =>
  Object.fromEntries(Object.entries(args).filter(([k, v]) => k in TUI_OPTIONS && v !== undefined))

describe('tui options read without yargs (cli/tui-options.ts)', () => {
  it.each([
    [],
    ['--url', 'http://localhost:8080'],
    ['--url=http://localhost:8080', '--control-token', 'secret'],
    ['--url', 'http://localhost:8080', '--key', 'demo-merchant', '--password', 'pw'],
    ['--data', '/tmp/x.json', '--config', 'fixtures/config/demo.json', '--port', '9000'],
    ['--port', 'abc'],
  ])('%j: as yargs reads it', async (...args) => {
    const fast = tuiArgs(args)
    expect(fast).toBeDefined()
    // NaN is NaN on both sides (`--port abc`): the command refuses it the same way.
    expect(optionsOf(fast as TuiArgs)).toEqual(optionsOf(await throughYargs(args)))
  })

  it.each([
    ['an unknown option', ['--ulr', 'http://localhost:8080']],
    ['a positional', ['extra']],
    ['a repeated option', ['--url', 'http://a.test', '--url', 'http://b.test']],
    ['an empty value', ['--url=']],
    ['a missing value', ['--url']],
    ['help', ['--help']],
    ['--key without --password (yargs: "Implications failed")', ['--key', 'demo-merchant']],
    ['--password without --key', ['--password', 'pw']],
    ['--url with --data (yargs: "mutually exclusive")', ['--url', 'http://a.test', '--data', 'x.json']],
    ['--url with --port', ['--url', 'http://a.test', '--port', '1']],
  ])('%s goes to yargs', async (_, args) => {
    expect(tuiArgs(args)).toBeUndefined()
  })

  it('refuses what it sends to yargs the way yargs does', async () => {
    await expect(throughYargs(['--key', 'demo-merchant'])).rejects.toThrow('Implications failed')
    await expect(throughYargs(['--url', 'http://a.test', '--data', 'x.json'])).rejects.toThrow(
      'mutually exclusive',
    )
  })

  it('knows every option of the yargs command, with the same type', () => {
    const y = yargs([])
    ;(tuiCommand.builder as (y: unknown) => unknown)(y)
    const opts = (y as unknown as { getOptions(): Record<string, string[]> }).getOptions()
    const described: Record<string, string> = {}
    for (const type of ['string', 'boolean', 'number'])
      for (const key of opts[type] ?? []) if (!key.includes('-') || key in TUI_OPTIONS) described[key] = type
    for (const key of Object.keys(described).filter((k) => !['help', 'version'].includes(k)))
      expect(TUI_OPTIONS, key).toHaveProperty(key)
    for (const [key, def] of Object.entries(TUI_OPTIONS)) expect(described[key], key).toBe(def.type)
  })
})
