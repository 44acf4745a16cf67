import type { CommandModule } from 'yargs'
import { scenarioExportCommand } from './scenario-export.js'

/** `paysandbox scenario export`: scenarios made from what a sandbox observed (docs/replay.md). */
export const scenarioCommand: CommandModule = {
  command: 'scenario <command>',
  describe: 'Make a conformance scenario from an order a running sandbox observed (export)',
  builder: (y) => y.command(scenarioExportCommand).demandCommand(1, 'Name what to do: export'),
  handler: () => {},
}
