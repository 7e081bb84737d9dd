import { afterAll, describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { getShortestPaths } from 'xstate/graph'
import { clientTimekeeping } from '../../machines/client/client.actors'
import { clientMachine } from '../../machines/client/client.machine'
import { serializeClientSnapshot } from '../../machines/client/client.traversal'
import { transactionMachine } from '../../machines/transaction/transaction.machine'
import {
  afterEvents,
  type CoverageRow,
  coverageRow,
  explore,
  possibleEvents,
  printCoverage,
} from './support/coverage'

// Paths generated from the root machine with synthetic events of its children (loadConnector done
// or failed, the connect / sign / universal-link children's snapshots and ends, named delays).

const rows: CoverageRow[] = []
afterAll(() => {
  console.log(`\n${printCoverage(rows)}\n`)
})

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const connection = {
  walletId: 'metamask',
  connectorId: 'metamask',
  namespace: 'eip155',
  chainId: 'eip155:1',
  accounts: [ACCOUNT],
}
const connectionSnapshot = (value: string, extra: Record<string, unknown> = {}) => ({
  type: 'xstate.snapshot.connection',
  snapshot: {
    value,
    context: {
      connection: value === 'connected' ? connection : null,
      error:
        value === 'rejected'
          ? { code: 'USER_REJECTED', message: 'no' }
          : value === 'failed'
            ? { code: 'NOT_CONNECTED', message: 'not authorized' }
            : null,
      ...extra,
    },
  },
})
const linkSnapshot = (value: string, signature: string | null = null) => ({
  type: 'xstate.snapshot.universalLink',
  snapshot: {
    value,
    context: { walletAddress: 'So1anaAddre55', signature, txSignature: null },
  },
})

const session = {
  namespaces: {
    eip155: { accounts: [`eip155:1:${ACCOUNT}`], methods: ['personal_sign'], events: [] },
  },
  peer: { publicKey: 'ab'.repeat(32), metadata: { name: 'Wallet', url: 'https://w.example' } },
  expiresAt: 1_900_000_000_000,
}
/** A snapshot of the `pairing` child: `flow` is its flow region's state, `lastRequest` r1's end. */
const pairingSnapshot = (
  flow: 'awaitingApproval' | 'paired',
  lastRequest: string | null = null,
  account: string = ACCOUNT,
) => ({
  type: 'xstate.snapshot.pairing',
  snapshot: {
    matches: (value: unknown) =>
      flow === 'paired' && JSON.stringify(value) === JSON.stringify({ active: { flow: 'paired' } }),
    context: {
      session: flow === 'paired' ? session : null,
      connection:
        flow === 'paired'
          ? {
              walletId: null,
              connectorId: 'relay',
              namespace: 'eip155',
              chainId: 'eip155:1',
              accounts: [account],
            }
          : null,
      lastRequest:
        lastRequest === null
          ? null
          : {
              requestId: 'r1',
              method: 'personal_sign',
              status: lastRequest,
              error: lastRequest === 'failed' ? { code: 'USER_REJECTED', message: 'no' } : null,
              at: 1,
            },
    },
  },
})

const events: AnyEventObject[] = [
  {
    type: 'PAIR',
    uri: 'scope:topic@1?symKey=k',
    input: {
      pairingId: '01'.repeat(16),
      proposalId: 1,
      relayUrl: 'ws://relay',
      requiredNamespaces: { eip155: { chains: ['eip155:1'], methods: ['personal_sign'] } },
      metadata: { name: 'dApp', url: 'https://dapp.example' },
      proposalExpiresAt: 2,
      startedAt: 1,
    },
  },
  { type: 'RELAY.REQUEST', requestId: 'r1', method: 'personal_sign' },
  { type: 'RESUMED' },
  pairingSnapshot('awaitingApproval'),
  pairingSnapshot('paired'),
  pairingSnapshot('paired', 'answered'),
  pairingSnapshot('paired', 'failed'),
  // The wallet's accounts changed (`scr_sessionEvent`), a request in flight or not.
  pairingSnapshot('paired', null, '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'),
  {
    type: 'xstate.done.actor.pairing',
    output: { status: 'rejected', session: null, error: { code: 'USER_REJECTED', message: 'no' } },
  },
  {
    type: 'xstate.done.actor.pairing',
    output: { status: 'disconnected', session: null, error: null },
  },
  { type: 'xstate.error.actor.pairing', error: { code: 'RELAY_ERROR', message: 'x' } },
  { type: 'SELECT_WALLET', walletId: 'metamask', namespace: 'eip155', connect: true },
  { type: 'SELECT_WALLET', walletId: 'phantom', namespace: 'solana', connect: false },
  { type: 'CONNECT' },
  { type: 'RECONNECT', walletId: 'metamask', namespace: 'eip155', connectorId: 'injected' },
  { type: 'SWITCH_CHAIN', chainId: 'eip155:8453' },
  { type: 'xstate.done.actor.switchChain', output: { chainId: 'eip155:8453' } },
  { type: 'xstate.error.actor.switchChain', error: { code: 'USER_REJECTED', message: 'no' } },
  {
    type: 'SIGN',
    request: { method: 'personal_sign', params: ['0x00', ACCOUNT] },
    link: { method: 'signMessage', payload: null },
  },
  { type: 'DISCONNECT' },
  { type: 'CANCEL' },
  { type: 'WALLET_OPENED', url: 'https://phantom.app/ul/?scSessionId=s' },
  { type: 'READ_CONFIG', id: 'read.config' },
  {
    type: 'READ_BALANCE',
    id: 'read.balance',
    query: { chainId: 'eip155:1', tokenAddress: 'native', account: ACCOUNT },
  },
  {
    type: 'READ_BALANCES',
    id: 'read.balances',
    queries: [{ chainId: 'eip155:1', tokenAddress: 'native', account: ACCOUNT }],
  },
  { type: 'xstate.done.actor.read.0', output: { chainId: 'eip155:1', balance: '0' } },
  { type: 'xstate.error.actor.read.0', error: { code: 'RPC_ERROR', message: 'x' } },
  {
    type: 'xstate.done.actor.config.0',
    output: { networks: [{ networkId: 'eip155:1' }], wallets: [] },
  },
  { type: 'xstate.error.actor.config.0', error: { code: 'RPC_ERROR', message: 'x' } },
  { type: 'xstate.error.actor.connection', error: new Error('the connect machine threw') },
  { type: 'xstate.error.actor.sign', error: new Error('the sign machine threw') },
  {
    type: 'xstate.done.actor.loadConnector',
    output: { kind: 'wallet', connectorId: 'metamask', walletId: 'metamask', chainId: null },
  },
  {
    type: 'xstate.done.actor.loadConnector',
    output: {
      kind: 'universal-link',
      connectorId: 'phantom',
      walletId: 'phantom',
      chainId: 'solana:devnet',
    },
  },
  {
    type: 'xstate.error.actor.loadConnector',
    error: { code: 'WALLET_UNAVAILABLE', message: 'no' },
  },
  connectionSnapshot('connecting'),
  connectionSnapshot('connected'),
  // The wallet's active account changed (accountsChanged).
  connectionSnapshot('connected', {
    connection: { ...connection, accounts: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'] },
  }),
  connectionSnapshot('rejected'),
  connectionSnapshot('failed'),
  connectionSnapshot('reconnecting'),
  connectionSnapshot('idle'),
  {
    type: 'xstate.snapshot.sign',
    snapshot: { value: 'failed', context: { error: { code: 'WALLET_ERROR', message: 'no' } } },
  },
  { type: 'xstate.snapshot.sign', snapshot: { value: 'requesting', context: { error: null } } },
  { type: 'xstate.done.actor.sign', output: { signature: '0xsig', verification: null } },
  linkSnapshot('awaitingWallet'),
  linkSnapshot('connected', 'sig'),
  {
    type: 'xstate.done.actor.universalLink',
    output: { status: 'rejected', error: { code: 'USER_REJECTED', message: 'no' } },
  },
  { type: 'xstate.done.actor.universalLink', output: { status: 'disconnected', error: null } },
  { type: 'xstate.error.actor.universalLink', error: { code: 'SESSION_FAILED', message: 'x' } },
  {
    type: 'SEND_TRANSACTION',
    input: {
      request: {
        chainId: 'eip155:1',
        from: ACCOUNT,
        calls: [{ to: ACCOUNT, value: '0x1', data: null }],
        fields: {},
        transaction: null,
      },
    },
  },
  {
    type: 'WATCH_TRANSACTION',
    input: {
      request: null,
      submitted: {
        chainId: 'eip155:1',
        hash: `0x${'ab'.repeat(32)}`,
        deadlines: { wallet: null, receipt: null, notSeen: null },
      },
    },
  },
  // The transaction flow is the second of a path (after the connect flow), sometimes the third.
  ...[2, 3].map((flow) => ({
    type: 'TRANSACTION.CHANGED',
    flow,
    hash: `0x${'ab'.repeat(32)}`,
  })),
  // What the root reads of the child's snapshot (spawned with syncSnapshot), raised as the above.
  {
    type: 'xstate.snapshot.transaction',
    snapshot: { context: { flow: 2, hash: `0x${'ab'.repeat(32)}` } },
  },
  // It ended before the wallet sent it (its final state's output: no hash).
  {
    type: 'xstate.done.actor.transaction',
    output: {
      outcome: 'rejected',
      chainId: 'eip155:1',
      hash: null,
      blockNumber: null,
      confirmations: 0,
      replacedBy: null,
      revertReason: null,
      error: { code: 'USER_REJECTED', message: 'no' },
    },
  },
  { type: 'xstate.error.actor.transaction', error: new Error('the transaction machine threw') },
  ...afterEvents(clientMachine),
]

describe('client (root) model', () => {
  const exploration = explore(
    // The chart with its deadlines on a clock that stands still (a traversal compares no time).
    clientMachine.provide({
      ...clientTimekeeping(() => 0),
      // The pure transaction chart: its own actors are never started by a traversal.
      actors: { transaction: transactionMachine },
    }),
    [
      { name: 'defaults', input: {} },
      { name: 'short timeouts', input: { timeouts: { walletAnswerMs: 10, signatureMs: 10 } } },
    ],
    () => events,
    serializeClientSnapshot as (s: AnyMachineSnapshot) => string,
  )
  const row = coverageRow('client', exploration)
  rows.push(row)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('every reachable state keeps the invariants the view relies on', () => {
    for (const { path } of exploration.paths) {
      const s = path.state
      expect(JSON.parse(JSON.stringify(s.context))).toEqual(s.context)
      // A flow is pending only in busy states or while its connector settles (checking is transient);
      // a transaction's flow runs beside the connection, in its own `transaction` child.
      if (s.context.pending === 'transaction') expect(s.children.transaction).toBeDefined()
      else if (s.context.pending !== null) expect(s.hasTag('busy')).toBe(true)
      // Connected means a connection; a connection outside `connected` states is never shown.
      if (s.hasTag('connected'))
        expect(
          s.context.connection,
          JSON.stringify([s.value, path.steps.map((step) => step.event.type)]),
        ).not.toBeNull()
      // Every outcome belongs to an earlier or the current flow.
      if (s.context.outcome) expect(s.context.outcome.flow).toBeLessThanOrEqual(s.context.flow)
      // A silent reconnect shows no error: the view is as before it, whatever its end.
      if (s.context.outcome?.kind === 'reconnect' && s.context.outcome.error)
        expect(s.context.error).toBeNull()
      // A cancellable state is busy.
      if (s.hasTag('cancellable')) expect(s.hasTag('busy')).toBe(true)
      // Only universal-link states and a paired relay session are resumable.
      if (s.hasTag('resumable'))
        expect(s.matches('link') || s.matches({ relay: 'paired' })).toBe(true)
      // The pairing URI (it holds the pairing key) is kept only while pairing.
      if (s.context.relay?.uri) expect(s.matches({ relay: 'pairing' })).toBe(true)
      // A relay request is in flight only while signing over the relay.
      if (s.context.relay?.request) expect(s.matches({ relay: 'signing' })).toBe(true)
      // A waiting state has the deadline of its own flow (a restored root keeps it); loading a
      // connector and a silent reconnect are bounded by delays of their own, never restored.
      if (s.hasTag('busy') && !s.matches('selecting') && !s.matches({ wallet: 'reconnecting' }))
        expect(s.context.deadline?.flow).toBe(s.context.flow)
    }
  })

  it('a traversal is deterministic: the same paths, in the same order, every run', () => {
    const run = () =>
      getShortestPaths(clientMachine.provide(clientTimekeeping(() => 0)), {
        input: {},
        events: (snapshot: AnyMachineSnapshot) => possibleEvents(snapshot, events),
        serializeState: serializeClientSnapshot as (s: AnyMachineSnapshot) => string,
        limit: 5000,
      } as never).map((path) => [
        serializeClientSnapshot(path.state as never),
        path.steps.map((step) => step.event.type),
      ])
    const started = performance.now()
    const first = run()
    console.log(
      `root traversal: ${first.length} paths in ${Math.round(performance.now() - started)} ms`,
    )
    expect(first.length).toBeGreaterThan(50)
    expect(run()).toEqual(first)
  })
})
