import type { ClientTimeouts } from '../../../machines/client/client.types'
import { checkArgument } from '../arguments'
import type { ClientPath, ClientPathStep } from '../paths/types'
import { type ClientPathDriver, type RunClientPathOptions, runClientPath } from './run-path'

/** The kind of a step as far as the Client's lazily loaded code goes (`user.connect`, `fault.balance`, …). */
const kindOf = (step: ClientPathStep): string => {
  switch (step.kind) {
    case 'user':
      return `user.${step.type}`
    case 'wallet':
      return `wallet.${step.behaviour}`
    case 'fault':
      return `fault.${step.at}`
    case 'time':
      return 'time'
    case 'reload':
      return `reload.${step.reconnect ?? ''}`
  }
}

/** Named timeouts no preload waits out. */
const PATIENT: ClientTimeouts = {
  connectorLoadMs: 60_000,
  discoveryMs: 200,
  walletAnswerMs: 60_000,
  signatureMs: 60_000,
  reconnectMs: 60_000,
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A driver with no UI: the action's method is called, its rejection left to the view. */
const headless: ClientPathDriver = {
  mount: () => {},
  act: (action, client) => {
    action.run(client).catch(() => {})
  },
  expect: () => {},
}

/**
 * Loads what the `Client` loads lazily before replays on virtual time, by replaying on real time
 * the fewest of `paths` that between them take every kind of step. A chunk loads on real time, and
 * a fake clock run on meanwhile would pass the Client's deadlines before it is there: call it once
 * (`beforeAll`) before `runClientPath` with a fake clock. Resolves with the number of paths it
 * replayed.
 *
 * Rejects with AppError `INVALID_CONFIG` when `paths` is not a list of paths or `options` has a
 * field of the wrong type; with `ClientPathError` as `runClientPath` does.
 */
export async function preloadClientPaths(
  paths: readonly ClientPath[],
  options: Omit<RunClientPathOptions, 'wait' | 'coverage'> = {},
): Promise<number> {
  checkArgument('paths', paths, 'preloadClientPaths paths')
  checkArgument('runOptions', options, 'preloadClientPaths options')
  const seen = new Set<string>()
  let played = 0
  for (const path of paths) {
    // The path up to its last step of a kind not seen yet (a chunk loads at its first such step);
    // time steps add nothing to load, and the path stops before its first one.
    let last = -1
    if (!seen.has(path.flow)) last = 0
    seen.add(path.flow)
    for (const [index, step] of path.steps.entries()) {
      if (step.kind === 'time') break
      if (!seen.has(kindOf(step))) last = index
      seen.add(kindOf(step))
    }
    if (last < 0) continue
    await runClientPath({ ...path, steps: path.steps.slice(0, last + 1) }, headless, {
      // Real time, its waits cut short: the run looks again every millisecond, and allows a chunk
      // as long as it takes to load (up to `settleMs` polls).
      wait: (ms) => sleep(Math.min(ms, 1)),
      settleMs: 30_000,
      // No time step is played: no deadline may pass while a chunk loads on a loaded machine.
      timeouts: PATIENT,
      ...options,
    })
    played++
  }
  return played
}
