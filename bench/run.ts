/** `npm run bench`: every performance target of the project, each against a baseline measured in the same run. */
import { benchConformance } from './conformance.js'
import { benchHttp } from './http.js'
import { fmt } from './lib.js'
import { benchListing } from './listing.js'
import { benchSlowClients } from './slow-clients.js'
import { benchStartup } from './startup.js'
import { benchStore } from './store.js'
import { benchSustained, sustainedOptions } from './sustained.js'
import { benchTuiStartup } from './tui-startup.js'
import { benchValidateStartup } from './validate-startup.js'

type MaybePromise<T> = T | Promise<T>
const argv = process.argv.slice(2)
// Suite names; `--seconds N` and `--parts a,b` are the sustained suite's (bench/sustained.ts).
const only = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.match(/^--(seconds|parts)$/))

// Issue 22: sustained windows against the binary, first (it prints as it goes; exit code 1 on a miss).
if (!only.length || only.includes('sustained')) {
  console.log('\n## sustained')
  if (await benchSustained(sustainedOptions(argv))) process.exitCode = 1
}
const suites: [
  string,
  () => MaybePromise<{
    rows: { name: string; runs: number; medianMs: number; p90Ms: number }[]
    summary: string
  }>,
][] = [
  ['startup', () => benchStartup()],
  ['tui', () => benchTuiStartup()],
  ['validate-startup', () => benchValidateStartup()],
  ['store', () => benchStore()],
  ['http', () => benchHttp()],
  ['conformance', () => benchConformance()],
  ['listing', () => benchListing()],
  ['slow-clients', () => benchSlowClients()],
]

for (const [name, run] of suites) {
  if (only.length && !only.includes(name)) continue
  console.log(`\n## ${name}`)
  const { rows, summary } = await run()
  for (const r of rows)
    console.log(
      `  ${r.name.padEnd(34)} median ${fmt(r.medianMs).padStart(7)} ms   p90 ${fmt(r.p90Ms).padStart(7)} ms   (${r.runs} runs)`,
    )
  console.log(`  => ${summary}`)
}
