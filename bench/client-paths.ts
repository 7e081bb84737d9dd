/**
 * How long generating the UI test paths takes (`getClientPaths`, issue 17: under 2 s), side by side
 * in one run with what a user would reach for instead: `xstate/graph`'s `getShortestPaths` straight
 * on the root machine from a script (no serializer: it stops at its traversal limit), and the same
 * call with the chart's own serializer and synthetic child events (the repository's model test,
 * paths of root events a UI cannot replay). Prints a table; the figures go to docs/testing.md.
 * `npx tsx bench/client-paths.ts [--rounds 5]`
 */
import { parseArgs } from 'node:util'
import type { AnyMachineSnapshot } from 'xstate'
import { getShortestPaths } from 'xstate/graph'
import { clientTimekeeping } from '../machines/client/client.actors'
import { clientMachine } from '../machines/client/client.machine'
import { serializeClientSnapshot } from '../machines/client/client.traversal'
import { exploreClient } from '../src/testing'

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } })
const rounds = Number(values.rounds)

const PUBLIC_EVENTS = [
  { type: 'SELECT_WALLET', walletId: 'metamask', namespace: 'eip155', connect: true },
  { type: 'CONNECT' },
  { type: 'CANCEL' },
  { type: 'DISCONNECT' },
  { type: 'RESUMED' },
]

function time(run: () => string): { ms: number; result: string } {
  const started = performance.now()
  const result = run()
  return { ms: performance.now() - started, result }
}

const targets: Array<[string, () => string]> = [
  [
    '`getClientPaths()` (desktop, pairing and universal link, every change)',
    () => {
      const { paths, graph } = exploreClient()
      return `${paths.length} paths, ${graph.statuses.length} statuses, ${graph.changes.length} changes`
    },
  ],
  [
    "`getClientPaths({ flows: ['desktop'], maxSteps: 3 })`",
    () => `${exploreClient({ flows: ['desktop'], maxSteps: 3 }).paths.length} paths`,
  ],
  [
    '`getShortestPaths(clientMachine)`, public events, no serializer',
    () => {
      try {
        return `${
          getShortestPaths(clientMachine, {
            input: {},
            events: PUBLIC_EVENTS as never,
            limit: 5_000,
          } as never).length
        } paths`
      } catch (error) {
        return `throws: ${(error as Error).message}`
      }
    },
  ],
  [
    '`getShortestPaths` with `serializeClientSnapshot`, public events',
    () =>
      `${
        getShortestPaths(clientMachine.provide(clientTimekeeping(() => 0)), {
          input: {},
          events: PUBLIC_EVENTS,
          serializeState: serializeClientSnapshot as (s: AnyMachineSnapshot) => string,
          limit: 5_000,
        } as never).length
      } paths (root events; children never answer)`,
  ],
]

const rows = targets.map(([name]) => ({ name, times: [] as number[], result: '' }))
for (let round = 0; round < rounds; round++)
  for (const [index, [, run]] of targets.entries()) {
    const { ms, result } = time(run)
    const row = rows[index] as (typeof rows)[number]
    row.times.push(ms)
    row.result = result
  }
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0
console.log(`| What | median of ${rounds} (ms) | first run (ms) | Result |`)
console.log('|---|---|---|---|')
for (const row of rows)
  console.log(
    `| ${row.name} | ${Math.round(median(row.times))} | ${Math.round(row.times[0] ?? 0)} | ${row.result} |`,
  )
