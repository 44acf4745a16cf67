/** `npm run bench`: every performance target of the project, each against a baseline measured in the same run. */
import { benchConformance } from './conformance.js'
import { benchHttp } from './http.js'
import { fmt } from './lib.js'
import { benchListing } from './listing.js'
import { benchPressure, pressureOptions } from './pressure.js'
import { benchSlowClients } from './slow-clients.js'
import { benchStartup } from './startup.js'
import { benchStore } from './store.js'
import { benchStreams, streamsOptions } from './streams.js'
import { benchSustained, sustainedOptions } from './sustained.js'
import { benchTuiStartup } from './tui-startup.js'
import { benchValidateStartup } from './validate-startup.js'

type MaybePromise<T> = T | Promise<T>
const argv = process.argv.slice(2)
// Suite names; the options after them are the suites' own (bench/sustained.ts, pressure.ts, streams.ts).
const VALUED = /^--(seconds|parts|runs|profile|modes|hold|after|rounds|requests|streams)$/
const only = argv.filter((a, i) => !a.startsWith('--') && !VALUED.test(argv[i - 1] ?? ''))

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
  ['streams', () => benchStreams(streamsOptions(argv))],
]

// Issue 32: held connections, idle sockets and stalled event streams against the binary (it prints as it goes).
if (!only.length || only.includes('pressure')) {
  console.log('\n## pressure')
  await benchPressure(pressureOptions(argv))
}

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
