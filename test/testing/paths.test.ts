import { beforeAll, describe, expect, it } from 'vitest'
import { type AnyStateMachine, createMachine } from 'xstate'
import { type ClientMachine, clientMachine } from '../../machines/client/client.machine'
import type { ClientStatus } from '../../machines/client/client.view'
import {
  ClientPathError,
  exploreClient,
  getClientPaths,
  preloadClientPaths,
  runClientPath,
  STEP_RULES,
  type StepRule,
} from '../../src/testing'
import { headless, useVirtualTime } from './support/replays'

// The generation itself: what the paths reach, that they follow the chart they come from (a
// transition re-targeted by hand makes a generated path fail on the real Client), the options.

// The replays run on virtual time, the Client's lazy chunks loaded first (on real time) by the
// path the replays below take.
beforeAll(async () => {
  const signThenCancel = getClientPaths({ flows: ['desktop'] }).filter((path) =>
    /signs a message → cancels → signs a message$/.test(path.description),
  )
  await preloadClientPaths(signThenCancel)
}, 30_000)
const wait = useVirtualTime()

/** A copy of the root machine whose transition `event` in the state at `path` goes to `target`. */
function retarget(path: string[], event: string, target: string): ClientMachine {
  type Node = { states?: Record<string, Node>; on?: Record<string, unknown> }
  const copy = (node: Node, rest: string[]): Node => {
    const [head, ...tail] = rest
    if (head === undefined) {
      const on = node.on ?? {}
      expect(on[event], `${path.join('.')} handles ${event}`).toBeDefined()
      return { ...node, on: { ...on, [event]: { ...(on[event] as object), target } } }
    }
    const child = node.states?.[head]
    expect(child, `state ${head}`).toBeDefined()
    return { ...node, states: { ...node.states, [head]: copy(child as Node, tail) } }
  }
  const config = copy(clientMachine.config as Node, path)
  return (createMachine(config as never) as AnyStateMachine).provide(
    clientMachine.implementations as never,
  ) as unknown as ClientMachine
}

describe('getClientPaths', () => {
  const { paths, graph } = exploreClient()

  it('reaches every status of the desktop, pairing and universal-link flows and every change between them', () => {
    const reached = new Set<ClientStatus>(
      paths.flatMap((path) => path.steps.flatMap((s) => s.through)),
    )
    expect([...reached].sort()).toEqual([...graph.statuses].sort())
    expect(graph.statuses.sort()).toEqual(
      [
        'awaitingSignature',
        'awaitingWallet',
        'connected',
        'connecting',
        'disconnected',
        'disconnecting',
        'idle',
        'pairing',
        'reconnecting',
        'selecting',
        'signing',
        'switchingChain',
      ].sort(),
    )
    // Every change the chart allows shows along some path (the paths leave out none); a reload
    // starts again from a fresh root.
    const along = new Set(
      paths.flatMap((path) => {
        const changes: string[] = []
        let last: ClientStatus = path.initial.status
        for (const step of path.steps)
          for (const [i, status] of step.through.entries()) {
            if (!(step.kind === 'reload' && i === 0) && status !== last)
              changes.push(`${last} → ${status}`)
            last = status
          }
        return changes
      }),
    )
    for (const change of graph.changes) expect(along, change).toContain(change)
    expect(graph.changes.length).toBeGreaterThan(10)
  })

  it('holds every kind of step: user actions, wallet answers and acts, faults, named timeouts, reloads', () => {
    const kinds = new Set(
      paths.flatMap((path) =>
        path.steps.map((s) =>
          s.kind === 'user'
            ? `user.${s.type}`
            : s.kind === 'wallet'
              ? `wallet.${s.behaviour}`
              : s.kind === 'time'
                ? `time.${s.timeout}`
                : s.kind,
        ),
      ),
    )
    expect([...kinds].sort()).toEqual(
      [
        'fault',
        'reload',
        'time.signatureMs',
        'time.walletAnswerMs',
        'user.cancel',
        'user.connect',
        'user.disconnect',
        'user.pair',
        'user.selectWallet',
        'user.sendTransaction',
        'user.signMessage',
        'user.switchChain',
        'wallet.approve',
        'wallet.changeAccount',
        'wallet.changeChain',
        'wallet.error',
        'wallet.lock',
        'wallet.reject',
      ].sort(),
    )
  })

  it('is deterministic: the same paths, in the same order, every run', () => {
    const describe = () => getClientPaths().map((path) => path.description)
    expect(describe()).toEqual(paths.map((path) => path.description))
  })

  it('maxSteps bounds the paths; rules can be left out or added', () => {
    const short = getClientPaths({ maxSteps: 2 })
    expect(short.length).toBeGreaterThan(0)
    expect(Math.max(...short.map((path) => path.steps.length))).toBe(2)
    const noReload = getClientPaths({
      rules: STEP_RULES.filter((rule) => !rule.id.startsWith('reload')),
    })
    expect(noReload.some((path) => path.steps.some((s) => s.kind === 'reload'))).toBe(false)
    const cancelTwice: StepRule = {
      id: 'user.cancelTwice',
      flows: ['desktop'],
      at: (snapshot, world) => {
        const cancel = STEP_RULES.find((rule) => rule.id === 'user.cancel')?.at(snapshot, world)
        return cancel && 'events' in cancel
          ? {
              step: { ...cancel.step, description: 'cancels twice' },
              events: [...cancel.events, ...cancel.events],
            }
          : null
      },
    }
    // A rule sends the chart's own events and names children's answers: an event of XState's
    // own (a child's done event) does not compile.
    const forged: StepRule = {
      id: 'wallet.forged',
      flows: ['desktop'],
      at: () => ({
        step: { kind: 'wallet', behaviour: 'approve', description: 'forges a signature' },
        events: [
          // @ts-expect-error `xstate.done.actor.sign` is not a ClientEvent nor a ChildAnswer
          { type: 'xstate.done.actor.sign', output: { signature: '0x', verification: null } },
        ],
      }),
    }
    expect(forged.id).toBe('wallet.forged')
    // A child's answer: the switch child fails with the answer's error.
    const switchRefused: StepRule = {
      id: 'wallet.refusesSwitch',
      flows: ['desktop'],
      at: (snapshot) =>
        snapshot.children.switchChain === undefined
          ? null
          : {
              step: { kind: 'wallet', behaviour: 'error', description: 'the wallet cannot switch' },
              events: [
                {
                  child: 'switchChain',
                  error: { code: 'WALLET_ERROR', message: 'No such chain.' },
                },
              ],
            },
    }
    const refused = getClientPaths({ flows: ['desktop'], rules: [...STEP_RULES, switchRefused] })
      .flatMap((path) => path.steps)
      .find((s) => s.description === 'the wallet cannot switch')
    expect(refused?.expected).toMatchObject({
      status: 'connected',
      error: { code: 'WALLET_ERROR' },
    })
    const more = getClientPaths({ rules: [...STEP_RULES, cancelTwice] })
    expect(more.some((path) => path.description.includes('cancels twice'))).toBe(true)
  })
})

describe('a root transition re-targeted by hand', () => {
  // Cancelling a signature goes back to `connected`; the copy sends it to `disconnected`.
  const DESKTOP = ['desktop'] as const
  const mutated = retarget(['wallet', 'signing'], 'CANCEL', 'disconnected')
  const pick = (list: ReturnType<typeof getClientPaths>) =>
    list.find((path) => /signs a message → cancels → signs a message$/.test(path.description))

  it('changes the generated paths', () => {
    const real = pick(getClientPaths({ flows: DESKTOP }))
    const changed = getClientPaths({ machine: mutated, flows: DESKTOP })
    expect(real).toBeDefined()
    expect(pick(changed)).toBeUndefined()
    const cancelled = changed.find((path) => /signs a message → cancels/.test(path.description))
    const cancel = cancelled?.steps.find((s) => s.kind === 'user' && s.type === 'cancel')
    expect(cancel?.expected.status).toBe('disconnected')
  })

  it('makes a generated path fail on the real Client', async () => {
    const path = getClientPaths({ machine: mutated, flows: DESKTOP }).find((p) =>
      /signs a message → cancels/.test(p.description),
    )
    expect(path).toBeDefined()
    const failure = await runClientPath(path!, headless, { wait }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ClientPathError)
    expect((failure as ClientPathError).message).toContain(
      'status: "connected", expected "disconnected"',
    )
  })

  it('while the paths of the real chart pass', async () => {
    const path = pick(getClientPaths({ flows: DESKTOP }))
    await runClientPath(path!, headless, { wait })
  })
})
