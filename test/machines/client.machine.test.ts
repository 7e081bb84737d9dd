import { base58 } from '@scure/base'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type ActorRefFrom,
  type AnyActorRef,
  createActor,
  createMachine,
  type EventObject,
  fromCallback,
  fromPromise,
  type InspectionEvent,
} from 'xstate'
import { createLazyLogic, provideClient } from '../../machines/client/client.actors'
import type { ClientActor } from '../../machines/client/client.facade'
import type {
  ClientEvent,
  ClientTimeouts,
  LoadConnectorInput,
} from '../../machines/client/client.types'
import { toClientView } from '../../machines/client/client.view'
import { createWalletMachines } from '../../machines/client/client.wallet'
import { type PairingMachine, pairingMachine } from '../../machines/pairing/pairing.machine'
import type { ActorTime, ApprovalOutput, PairingInput } from '../../machines/pairing/pairing.types'
import { createMemoryTokenVault } from '../../machines/session-polling/session-polling.actors'
import { createDeferredInspector } from '../../machines/shared/deferred-inspector'
import { createSecretRegistry } from '../../machines/shared/secret-registry'
import { provideTransaction } from '../../machines/transaction/transaction.actors'
import { createUniversalLinkActors } from '../../machines/universal-link/universal-link.actors'
import {
  type UniversalLinkMachine,
  universalLinkMachine,
} from '../../machines/universal-link/universal-link.machine'
import type { OpenWalletInput } from '../../machines/universal-link/universal-link.types'
import type { ConnectorEvent, IWalletConnector, WalletConnection } from '../../src/connectors/types'
import { AppError } from '../../src/errors'
import { REDACTED } from '../../src/logging'
import type { GenericSessionResult } from '../../src/session/types'
import { relayConnectionDouble } from './support/relay-connection-double'

// The root machine with scripted fakes of the outside world: a wallet whose answers the test
// gives (or withholds), a backend for the universal-link flow. Each test pins one transition of
// the chart through what a caller sees: the view and the outcome of the flow.

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const CONNECTION: WalletConnection = {
  walletId: 'metamask',
  connectorId: 'metamask',
  namespace: 'eip155',
  chainId: 'eip155:1',
  accounts: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
}

/** A wallet whose every answer is a promise the test settles. */
function scriptedWallet() {
  const listeners = new Set<(event: ConnectorEvent) => void>()
  const pending = {
    connect: [] as ReturnType<typeof deferred<WalletConnection>>[],
    reconnect: [] as ReturnType<typeof deferred<WalletConnection | null>>[],
    switchChain: [] as Array<ReturnType<typeof deferred<void>> & { chainId: string }>,
    request: [] as ReturnType<typeof deferred<unknown>>[],
    disconnect: [] as ReturnType<typeof deferred<void>>[],
  }
  const connector: IWalletConnector = {
    id: 'metamask',
    isAvailable: () => true,
    getAccounts: () => [...CONNECTION.accounts],
    connect() {
      const d = deferred<WalletConnection>()
      pending.connect.push(d)
      return d.promise
    },
    reconnect() {
      const d = deferred<WalletConnection | null>()
      pending.reconnect.push(d)
      return d.promise
    },
    request<T>() {
      const d = deferred<unknown>()
      pending.request.push(d)
      return d.promise as Promise<T>
    },
    disconnect() {
      const d = deferred<void>()
      pending.disconnect.push(d)
      return d.promise
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const emit = (e: ConnectorEvent) => {
    for (const listener of listeners) listener(e)
  }
  return { connector, pending, emit }
}

// Wallet answers are checked (issue 27): a 32-byte key and 64-byte signatures, base58.
const LINK_ADDRESS = base58.encode(new Uint8Array(32).fill(9))
const linkSignature = (sessionId: string) =>
  base58.encode(
    Uint8Array.from({ length: 64 }, (_, i) => sessionId.charCodeAt(i % sessionId.length)),
  )

function scriptedBackend(options: { flowThrows?: boolean } = {}) {
  const results = new Map<string, GenericSessionResult>()
  /** While set, every result poll fails with this HTTP status (a backend down behind its proxy). */
  const polls: { failWith: number | null } = { failWith: null }
  let n = 0
  const result = (sessionId: string, status: GenericSessionResult['status']) => ({
    sessionId,
    status,
    connected: status === 'connected' || status === 'signed',
    signed: status === 'signed',
    walletAddress: status === 'connected' || status === 'signed' ? LINK_ADDRESS : null,
    signature: status === 'signed' ? linkSignature(sessionId) : null,
    txSignature: null,
    errorCode: status === 'rejected' ? 'USER_REJECTED' : null,
  })
  const client = {
    async createSession() {
      n += 1
      results.set(`s${n}`, result(`s${n}`, 'pending'))
      return {
        sessionId: `s${n}`,
        nonce: `nonce${n}`,
        sessionToken: `token-${n}-secret`,
        expiresAt: Date.now() + 60_000,
      }
    },
    async getResult(sessionId: string) {
      if (polls.failWith !== null)
        throw new AppError('BACKEND_ERROR', 'GET /sessions/{id}/result failed', {
          status: polls.failWith,
        })
      return results.get(sessionId) as GenericSessionResult
    },
  }
  const opened: string[] = []
  const machine = universalLinkMachine.provide({
    actors: {
      ...createUniversalLinkActors(client, {
        intent: 'transaction',
        vault: createMemoryTokenVault(),
      }),
      openWallet: fromPromise<void, OpenWalletInput>(async ({ input }) => {
        opened.push(input.method === 'connect' ? 'connect' : 'sign')
      }),
    },
    ...(options.flowThrows
      ? {
          actions: {
            storeSession: () => {
              throw new Error('the flow breaks')
            },
          },
        }
      : {}),
  })
  return {
    machine,
    opened,
    polls,
    answer: (id: string, s: GenericSessionResult['status']) => results.set(id, result(id, s)),
  }
}

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** The pairing machine with a scripted relay: the wallet's approval, requests and delete wait for the test. */
function scriptedRelay(options: { relayThrows?: boolean } = {}) {
  const pending = {
    approval: [] as ReturnType<typeof deferred<ApprovalOutput>>[],
    request: [] as ReturnType<typeof deferred<ActorTime>>[],
    delete: [] as ReturnType<typeof deferred<ActorTime>>[],
  }
  const wallet: { sendBack: ((event: EventObject) => void) | null } = { sendBack: null }
  /** The relay connection, online from the start; the test plays it down and back. */
  const connection = relayConnectionDouble({ initial: 'online' })
  const at = async () => ({ at: Date.now() })
  const waitFor = <T>(list: ReturnType<typeof deferred<T>>[]) =>
    fromPromise<T, unknown>(() => {
      const d = deferred<T>()
      list.push(d)
      return d.promise
    })
  const machine = pairingMachine.provide({
    actors: {
      relayConnection: options.relayThrows
        ? fromCallback(() => {
            throw new Error('the relay cannot be reached')
          })
        : connection.logic,
      fetchRelayToken: fromPromise(at),
      connectRelay: fromPromise(at),
      awaitApproval: waitFor(pending.approval),
      settleSession: fromPromise(at),
      maintainSession: fromCallback(({ sendBack }) => {
        wallet.sendBack = sendBack
        return () => {}
      }),
      sendRequest: waitFor(pending.request),
      pingPeer: fromPromise(at),
      deleteSession: waitFor(pending.delete),
    } as never,
  }) as PairingMachine
  const approve = () =>
    pending.approval[0]?.resolve({
      session: {
        namespaces: {
          eip155: { accounts: [`eip155:1:${ACCOUNT}`], methods: ['personal_sign'], events: [] },
        },
        peer: {
          publicKey: 'ab'.repeat(32),
          metadata: { name: 'Wallet', url: 'https://w.example' },
        },
        expiresAt: Date.now() + 7 * 86_400_000,
      },
      at: Date.now(),
    })
  return { machine, pending, wallet, approve, relayStatus: connection.play }
}

const PAIRING_URI = `scope:${'cd'.repeat(32)}@1?relay-url=ws://relay&symKey=${'ef'.repeat(32)}`
const PAIR = (): ClientEvent => ({
  type: 'PAIR',
  uri: PAIRING_URI,
  input: {
    pairingId: '01'.repeat(16),
    proposalId: 1,
    relayUrl: 'ws://relay',
    requiredNamespaces: { eip155: { chains: ['eip155:1'], methods: ['personal_sign'] } },
    metadata: { name: 'dApp', url: 'https://dapp.example' },
    proposalExpiresAt: Date.now() + 300_000,
    startedAt: Date.now(),
  } satisfies PairingInput,
})

/** A child machine that throws as it starts. */
const throwingMachine = createMachine({
  entry: () => {
    throw new Error('the child machine threw')
  },
})

function start(
  options: {
    timeouts?: Partial<ClientTimeouts>
    link?: boolean
    failLoad?: boolean
    slowLoad?: boolean
    flowThrows?: boolean
    relayThrows?: boolean
    pollMs?: number
    /** This child machine throws as it starts (a fault no child handles itself). */
    throwing?: 'connection' | 'sign'
  } = {},
) {
  const sends: ReturnType<typeof deferred<string>>[] = []
  /** The project config the backend serves: its networks, whether it is down, how often it was read. */
  const config = { networks: [] as string[], down: false, reads: 0 }
  const transaction = provideTransaction({
    send: () => {
      const d = deferred<string>()
      sends.push(d)
      return d.promise
    },
    readStatus: () => new Promise(() => {}),
  })
  const relay = scriptedRelay({ relayThrows: options.relayThrows === true })
  const wallet = scriptedWallet()
  const backend = scriptedBackend({ flowThrows: options.flowThrows === true })
  const lazy = createLazyLogic<UniversalLinkMachine>('universalLink')
  lazy.set(backend.machine)
  const loads: LoadConnectorInput[] = []
  let current: IWalletConnector | null = null
  const machine = provideClient({
    async loadConnector(input) {
      loads.push(input)
      if (options.slowLoad) await new Promise(() => {})
      if (options.failLoad) throw new AppError('WALLET_UNAVAILABLE', 'No such wallet here.')
      current = wallet.connector
      return options.link
        ? {
            kind: 'universal-link',
            connectorId: 'phantom',
            walletId: 'phantom',
            chainId: 'solana:devnet',
            pollIntervalMs: options.pollMs ?? 1,
          }
        : { kind: 'wallet', connectorId: 'metamask', walletId: 'metamask', chainId: null }
    },
    ...createWalletMachines({ connector: () => current }),
    ...(options.throwing ? { [options.throwing]: throwingMachine as never } : {}),
    readConfig: async () => {
      config.reads++
      if (config.down) throw new AppError('RPC_ERROR', 'The backend is down.')
      const networks = config.networks.map((networkId) => ({ networkId }))
      return { projectId: 'p', name: 'n', networks, wallets: [] } as never
    },
    readBalance: async () => {
      throw new AppError('UNSUPPORTED_CHAIN', 'no')
    },
    readBalances: async () => {
      throw new AppError('RPC_ERROR', 'no')
    },
    switchChain(chainId) {
      const d = deferred<void>()
      wallet.pending.switchChain.push({ ...d, chainId })
      return d.promise
    },
    universalLink: lazy.logic,
    pairing: relay.machine,
    transaction,
  })
  const actor = createActor(machine, {
    input: options.timeouts ? { timeouts: options.timeouts } : {},
  }).start()
  /** A new root from a persisted snapshot of this one (a reload), told it was `RESUMED`. */
  const restore = (snapshot: unknown) => {
    const restored = createActor(machine, { input: {}, snapshot: snapshot as never })
    restored.start()
    restored.send({ type: 'RESUMED' })
    return restored
  }
  return { actor, wallet, backend, loads, relay, restore, sends, config }
}

const view = (actor: ClientActor) => toClientView(actor.getSnapshot())
const outcome = (actor: ClientActor) => actor.getSnapshot().context.outcome
async function until(condition: () => boolean, tries = 400) {
  for (let i = 0; i < tries && !condition(); i++) await new Promise((r) => setTimeout(r, 2))
  expect(condition()).toBe(true)
}
const tick = () => new Promise((r) => setTimeout(r, 5))
const send = (actor: ClientActor, event: ClientEvent) => actor.send(event)
const select = (connect = false): ClientEvent => ({
  type: 'SELECT_WALLET',
  walletId: 'metamask',
  namespace: 'eip155',
  connect,
})
/** A signature of the right shape (65 bytes of hex): the wallet answers are checked. */
const SIGNATURE = `0x${'5a'.repeat(65)}`
const SIGN: ClientEvent = {
  type: 'SIGN',
  request: { method: 'personal_sign', params: ['0x00', CONNECTION.accounts[0] ?? ''] },
  link: { method: 'signMessage', payload: null },
}

/** A root connected to the scripted wallet; `prepare` runs on it first (the backend's config, reads). */
async function connected(prepare?: (t: ReturnType<typeof start>) => void | Promise<void>) {
  const t = start()
  await prepare?.(t)
  send(t.actor, select(true))
  await until(() => t.wallet.pending.connect.length === 1)
  t.wallet.pending.connect[0]?.resolve(CONNECTION)
  await until(() => view(t.actor).status === 'connected')
  return t
}

describe('client machine: selecting', () => {
  it('starts idle; SELECT_WALLET loads the connector and settles the select flow', async () => {
    const { actor, loads } = start()
    expect(view(actor)).toMatchObject({ status: 'idle', canConnect: true, canCancel: false })
    send(actor, select())
    expect(view(actor)).toMatchObject({ status: 'selecting', isBusy: true, canCancel: true })
    await until(() => view(actor).status === 'disconnected')
    expect(loads).toEqual([
      { walletId: 'metamask', connectorId: null, namespace: 'eip155', discoveryMs: 3000 },
    ])
    expect(outcome(actor)).toMatchObject({ kind: 'select', error: null })
    expect(view(actor).connectionKind).toBe('wallet')
  })

  it('a load error settles with it and returns to idle', async () => {
    const { actor } = start({ failLoad: true })
    send(actor, select())
    await until(() => outcome(actor) !== null)
    expect(outcome(actor)?.error?.code).toBe('WALLET_UNAVAILABLE')
    expect(view(actor).status).toBe('idle')
  })

  it('CANCEL and connectorLoadMs end the selection', async () => {
    const a = start({ slowLoad: true })
    send(a.actor, select())
    send(a.actor, { type: 'CANCEL' })
    expect(outcome(a.actor)?.error?.code).toBe('ABORTED')
    expect(view(a.actor).status).toBe('idle')

    const b = start({ slowLoad: true, timeouts: { connectorLoadMs: 10 } })
    send(b.actor, select())
    await until(() => outcome(b.actor) !== null)
    expect(outcome(b.actor)?.error?.code).toBe('TIMEOUT')
    expect(view(b.actor).status).toBe('idle')
  })

  it('a second SELECT_WALLET replaces a pending flow, which settles ABORTED', async () => {
    const { actor } = start({ slowLoad: true })
    send(actor, select())
    const first = actor.getSnapshot().context.flow
    send(actor, select())
    expect(outcome(actor)).toMatchObject({ flow: first, error: { code: 'ABORTED' } })
    expect(actor.getSnapshot().context.flow).toBe(first + 1)
    expect(view(actor).status).toBe('selecting')
  })
})

describe('client machine: a desktop wallet', () => {
  it('connect: SELECT_WALLET with connect continues to connecting, then connected', async () => {
    const { actor, wallet } = await connected()
    expect(view(actor)).toMatchObject({
      status: 'connected',
      isConnected: true,
      address: CONNECTION.accounts[0],
      chainId: 'eip155:1',
      canSign: true,
    })
    expect(outcome(actor)).toMatchObject({ kind: 'connect', error: null })
    // Account and chain changes are followed while connected.
    wallet.emit({ type: 'chainChanged', chainId: 'eip155:10' })
    await until(() => view(actor).chainId === 'eip155:10')
    expect(view(actor).status).toBe('connected')
  })

  it('CONNECT from disconnected; a rejection settles USER_REJECTED and can be retried', async () => {
    const { actor, wallet } = start()
    send(actor, select())
    await until(() => view(actor).status === 'disconnected')
    send(actor, { type: 'CONNECT' })
    expect(view(actor).status).toBe('connecting')
    await until(() => wallet.pending.connect.length === 1)
    wallet.pending.connect[0]?.reject(Object.assign(new Error('User rejected'), { code: 4001 }))
    await until(() => outcome(actor)?.kind === 'connect')
    expect(outcome(actor)?.error?.code).toBe('USER_REJECTED')
    expect(view(actor)).toMatchObject({ status: 'disconnected', canRetry: true, canConnect: true })
    send(actor, { type: 'CONNECT' })
    await until(() => wallet.pending.connect.length === 2)
    wallet.pending.connect[1]?.resolve(CONNECTION)
    await until(() => view(actor).status === 'connected')
  })

  it('connecting: CANCEL, DISCONNECT and walletAnswerMs each end it', async () => {
    for (const end of ['CANCEL', 'DISCONNECT', 'timeout'] as const) {
      const { actor } = start(end === 'timeout' ? { timeouts: { walletAnswerMs: 10 } } : {})
      send(actor, select(true))
      await until(() => view(actor).status === 'connecting')
      if (end !== 'timeout') send(actor, { type: end })
      await until(() => outcome(actor)?.kind === 'connect')
      expect(outcome(actor)?.error?.code).toBe(end === 'timeout' ? 'TIMEOUT' : 'ABORTED')
      expect(view(actor).status).toBe('disconnected')
    }
  })

  it('the wallet disconnecting while connected returns to disconnected', async () => {
    const { actor, wallet } = await connected()
    wallet.emit({ type: 'disconnect' })
    await until(() => view(actor).status === 'disconnected')
    expect(view(actor).isConnected).toBe(false)
    // Nor kept in context, which the inspector and `useClientSelector` see.
    expect(actor.getSnapshot().context.connection).toBeNull()
  })

  it('SIGN: signing, then the signature settles the flow and the client stays connected', async () => {
    const { actor, wallet } = await connected()
    send(actor, SIGN)
    expect(view(actor)).toMatchObject({ status: 'signing', canCancel: true, isConnected: true })
    await until(() => wallet.pending.request.length === 1)
    wallet.pending.request[0]?.resolve(SIGNATURE)
    await until(() => outcome(actor)?.kind === 'sign')
    expect(outcome(actor)).toMatchObject({ error: null, signature: SIGNATURE })
    expect(view(actor).status).toBe('connected')
  })

  it('signing: a rejection, CANCEL and signatureMs settle it and keep the connection', async () => {
    for (const end of ['reject', 'CANCEL', 'timeout'] as const) {
      const { actor, wallet } = await connected()
      if (end === 'timeout') actor.getSnapshot().context.timeouts.signatureMs = 10 // the delay is read on entry
      send(actor, SIGN)
      await until(() => wallet.pending.request.length === 1)
      if (end === 'reject')
        wallet.pending.request[0]?.reject(Object.assign(new Error('no'), { code: 4001 }))
      if (end === 'CANCEL') send(actor, { type: 'CANCEL' })
      await until(() => outcome(actor)?.kind === 'sign')
      expect(outcome(actor)?.error?.code).toBe(
        { reject: 'USER_REJECTED', CANCEL: 'ABORTED', timeout: 'TIMEOUT' }[end],
      )
      expect(view(actor).status).toBe('connected')
    }
  })

  it('signing: the wallet disconnecting settles NOT_CONNECTED; DISCONNECT goes through disconnecting', async () => {
    const a = await connected()
    send(a.actor, SIGN)
    a.wallet.emit({ type: 'disconnect' })
    await until(() => outcome(a.actor)?.kind === 'sign')
    expect(outcome(a.actor)?.error?.code).toBe('NOT_CONNECTED')
    expect(view(a.actor).status).toBe('disconnected')

    const b = await connected()
    send(b.actor, SIGN)
    const signFlow = b.actor.getSnapshot().context.flow
    send(b.actor, { type: 'DISCONNECT' })
    expect(outcome(b.actor)).toMatchObject({ flow: signFlow, error: { code: 'ABORTED' } })
    expect(view(b.actor).status).toBe('disconnecting')
    await until(() => b.wallet.pending.disconnect.length === 1)
    b.wallet.pending.disconnect[0]?.resolve()
    await until(() => view(b.actor).status === 'disconnected')
    expect(outcome(b.actor)).toMatchObject({ kind: 'disconnect', error: null })
  })

  it('DISCONNECT: disconnecting, then disconnected (or after walletAnswerMs)', async () => {
    const a = await connected()
    send(a.actor, { type: 'DISCONNECT' })
    expect(view(a.actor)).toMatchObject({ status: 'disconnecting', isBusy: true })
    await until(() => a.wallet.pending.disconnect.length === 1)
    a.wallet.pending.disconnect[0]?.resolve()
    await until(() => view(a.actor).status === 'disconnected')
    expect(outcome(a.actor)).toMatchObject({ kind: 'disconnect', error: null })

    const b = await connected()
    b.actor.getSnapshot().context.timeouts.walletAnswerMs = 10
    send(b.actor, { type: 'DISCONNECT' })
    await until(() => view(b.actor).status === 'disconnected')
    expect(outcome(b.actor)).toMatchObject({ kind: 'disconnect', error: null })
    await new Promise((r) => setTimeout(r, 30))
    // The wallet was not asked to connect again, and no timeout of a connection followed.
    expect(b.wallet.pending.connect).toHaveLength(1)
    expect(view(b.actor).error).toBeNull()
    expect(view(b.actor).status).toBe('disconnected')
  })

  it('reads are spawned actors of the system, found by their system id, gone once settled', async () => {
    const { actor } = start()
    const children = () => actor.getSnapshot().children as Record<string, AnyActorRef | undefined>
    send(actor, { type: 'READ_CONFIG', id: 'first' })
    const ref = actor.system.get('first')
    expect(ref).toBeDefined()
    expect(children()['config.0']).toBe(ref)
    await until(() => ref?.getSnapshot().status === 'done')
    expect(ref?.getSnapshot().output).toMatchObject({ projectId: 'p' })
    expect(children()['config.0']).toBeUndefined()
    expect(actor.system.get('first')).toBeUndefined()
  })

  it('behavior: a read takes the lowest free slot; a settled read frees its slot for the next', async () => {
    const { actor } = start()
    const children = () => Object.keys(actor.getSnapshot().children)
    const query = { chainId: 'eip155:1', tokenAddress: 'native', account: '0x0' }
    send(actor, { type: 'READ_CONFIG', id: 'a' })
    send(actor, { type: 'READ_CONFIG', id: 'b' })
    send(actor, { type: 'READ_BALANCE', id: 'c', query })
    send(actor, { type: 'READ_BALANCES', id: 'd', queries: [query] })
    expect(children().sort()).toEqual(['config.0', 'config.1', 'read.0', 'read.1'])
    expect(actor.system.get('b')).toBe(actor.getSnapshot().children['config.1'])
    expect(actor.system.get('d')).toBe(actor.getSnapshot().children['read.1'])
    await until(() => children().length === 0)
    send(actor, { type: 'READ_BALANCE', id: 'e', query })
    expect(children()).toEqual(['read.0'])
  })

  it('error: a failed read ends that read only; the root stays active and usable', async () => {
    const { actor, wallet } = start()
    const children = () => actor.getSnapshot().children as Record<string, AnyActorRef | undefined>
    send(actor, {
      type: 'READ_BALANCE',
      id: 'balance',
      query: { chainId: 'eip155:1', tokenAddress: 'native', account: '0x0' },
    })
    const ref = actor.system.get('balance')
    expect(children()['read.0']).toBe(ref)
    await until(() => ref?.getSnapshot().status === 'error')
    expect(children()['read.0']).toBeUndefined()
    expect(actor.getSnapshot().status).toBe('active')
    send(actor, select(true))
    await until(() => wallet.pending.connect.length === 1)
    wallet.pending.connect[0]?.resolve(CONNECTION)
    await until(() => view(actor).status === 'connected')
  })

  it('error: a connect machine that throws settles WALLET_ERROR, back to idle, root active', async () => {
    const { actor } = start({ throwing: 'connection' })
    send(actor, select(true))
    await until(() => outcome(actor)?.kind === 'connect')
    expect(outcome(actor)?.error).toMatchObject({ code: 'WALLET_ERROR' })
    expect(actor.getSnapshot().status).toBe('active')
    expect(view(actor).status).toBe('idle')
  })

  it('error: a sign machine that throws settles WALLET_ERROR and keeps the connection', async () => {
    const t = start({ throwing: 'sign' })
    send(t.actor, select(true))
    await until(() => t.wallet.pending.connect.length === 1)
    t.wallet.pending.connect[0]?.resolve(CONNECTION)
    await until(() => view(t.actor).status === 'connected')
    send(t.actor, SIGN)
    await until(() => outcome(t.actor)?.kind === 'sign')
    expect(outcome(t.actor)?.error).toMatchObject({ code: 'WALLET_ERROR' })
    expect(view(t.actor).status).toBe('connected')
    expect(t.actor.getSnapshot().status).toBe('active')
  })
})

const RECONNECT: ClientEvent = {
  type: 'RECONNECT',
  walletId: 'metamask',
  namespace: 'eip155',
  connectorId: 'eip6963:io.metamask',
}

describe('client machine: a silent reconnect', () => {
  it('behavior: RECONNECT loads the stored connector and reconnects without a prompt', async () => {
    const { actor, wallet, loads } = start()
    send(actor, RECONNECT)
    expect(view(actor)).toMatchObject({ status: 'selecting', pending: 'reconnect' })
    await until(() => wallet.pending.reconnect.length === 1)
    expect(loads.at(-1)).toMatchObject({ walletId: 'metamask', connectorId: 'eip6963:io.metamask' })
    expect(view(actor)).toMatchObject({ status: 'reconnecting', isBusy: true, canCancel: true })
    wallet.pending.reconnect[0]?.resolve(CONNECTION)
    await until(() => view(actor).status === 'connected')
    expect(outcome(actor)).toMatchObject({ kind: 'reconnect', error: null })
    expect(wallet.pending.connect).toHaveLength(0)
    expect(view(actor)).toMatchObject({ address: CONNECTION.accounts[0], canSign: true })
    // A later selection asks for no stored connector.
    send(actor, select())
    expect(actor.getSnapshot().context.selectedConnectorId).toBeNull()
  })

  it('error: not authorized, a wallet error, CANCEL and reconnectMs end it quietly; CONNECT then prompts', async () => {
    for (const end of ['locked', 'error', 'CANCEL', 'timeout'] as const) {
      const { actor, wallet } = start(end === 'timeout' ? { timeouts: { reconnectMs: 10 } } : {})
      send(actor, RECONNECT)
      await until(() => wallet.pending.reconnect.length === 1)
      if (end === 'locked') wallet.pending.reconnect[0]?.resolve(null)
      if (end === 'error')
        wallet.pending.reconnect[0]?.reject(Object.assign(new Error('boom'), { code: -32603 }))
      if (end === 'CANCEL') send(actor, { type: 'CANCEL' })
      await until(() => outcome(actor)?.kind === 'reconnect')
      expect(outcome(actor)?.error?.code).toBe(
        { locked: 'NOT_CONNECTED', error: 'WALLET_ERROR', CANCEL: 'ABORTED', timeout: 'TIMEOUT' }[
          end
        ],
      )
      // No error on screen; the wallet stays selected, so connect() asks it (with a prompt).
      expect(view(actor)).toMatchObject({
        status: 'disconnected',
        error: null,
        canRetry: false,
        walletId: 'metamask',
      })
      send(actor, { type: 'CONNECT' })
      await until(() => wallet.pending.connect.length === 1)
      wallet.pending.connect[0]?.resolve(CONNECTION)
      await until(() => view(actor).status === 'connected')
      expect(outcome(actor)).toMatchObject({ kind: 'connect', error: null })
    }
  })

  it('behavior: a connection child that reports idle while reconnecting is no end (only connected or failed are)', async () => {
    const { actor, wallet } = start()
    send(actor, RECONNECT)
    await until(() => wallet.pending.reconnect.length === 1)
    actor.send({
      type: 'CONNECTION.CHANGED',
      status: 'idle',
      connection: null,
      error: null,
    } as ClientEvent)
    expect(view(actor).status).toBe('reconnecting')
    wallet.pending.reconnect[0]?.resolve(CONNECTION)
    await until(() => view(actor).status === 'connected')
  })
})

/** Connected while the backend's config is down: the root's chains read failed and ended. */
async function connectedWithConfigDown() {
  const t = await connected((t) => {
    t.config.down = true
  })
  await until(
    () => t.config.reads === 1 && Object.keys(t.actor.getSnapshot().children).length === 1,
  )
  return t
}

describe('client machine: chains', () => {
  it('behavior: connected, the root reads the project chains once; chainSupported follows chainChanged', async () => {
    const t = await connected((t) => {
      t.config.networks = ['eip155:1', 'eip155:8453']
    })
    await until(() => view(t.actor).chainSupported === true)
    expect(t.config.reads).toBe(1)
    expect(t.actor.getSnapshot().context.projectChains).toEqual(['eip155:1', 'eip155:8453'])
    t.wallet.emit({ type: 'chainChanged', chainId: 'eip155:137' })
    await until(() => view(t.actor).chainId === 'eip155:137')
    expect(view(t.actor).chainSupported).toBe(false)
    send(t.actor, { type: 'DISCONNECT' })
    await until(() => t.wallet.pending.disconnect.length === 1)
    t.wallet.pending.disconnect[0]?.resolve()
    await until(() => view(t.actor).status === 'disconnected')
    expect(view(t.actor).chainSupported).toBeUndefined()
    // Known chains are not read again by the next connection.
    send(t.actor, { type: 'CONNECT' })
    await until(() => t.wallet.pending.connect.length === 2)
    t.wallet.pending.connect[1]?.resolve(CONNECTION)
    await until(() => view(t.actor).status === 'connected')
    expect(view(t.actor).chainSupported).toBe(true)
    expect(t.config.reads).toBe(1)
  })

  it('error: a failed chains read leaves chainSupported unknown; the next connected state reads again', async () => {
    const t = await connectedWithConfigDown()
    expect(view(t.actor)).toMatchObject({ status: 'connected', chainSupported: undefined })
    t.config.down = false
    t.config.networks = ['eip155:1']
    send(t.actor, { type: 'SWITCH_CHAIN', chainId: 'eip155:8453' })
    await until(() => t.wallet.pending.switchChain.length === 1)
    t.wallet.pending.switchChain[0]?.resolve()
    await until(() => view(t.actor).chainSupported === false)
    expect(t.config.reads).toBe(2)
  })

  it('behavior: a READ_CONFIG read gives the chains; a connection then reads none', async () => {
    const t = await connected(async (t) => {
      t.config.networks = ['eip155:1']
      send(t.actor, { type: 'READ_CONFIG', id: 'config' })
      await until(() => t.actor.getSnapshot().context.projectChains !== null)
      expect(t.actor.getSnapshot().context.projectChains).toEqual(['eip155:1'])
    })
    expect(view(t.actor).chainSupported).toBe(true)
    expect(t.config.reads).toBe(1)
  })

  it('behavior: a root restored connected without the chains reads them once RESUMED', async () => {
    const t = await connectedWithConfigDown()
    t.config.down = false
    t.config.networks = ['eip155:1']
    const restored = t.restore(t.actor.getPersistedSnapshot())
    await until(() => restored.getSnapshot().context.projectChains !== null)
    expect(t.config.reads).toBe(2)
    expect(view(restored).chainSupported).toBe(true)
  })

  it('behavior: SWITCH_CHAIN runs switchChain; its answer moves the connection even without chainChanged', async () => {
    const { actor, wallet } = await connected()
    send(actor, { type: 'SWITCH_CHAIN', chainId: 'eip155:8453' })
    expect(view(actor)).toMatchObject({
      status: 'switchingChain',
      pending: 'switchChain',
      isConnected: true,
      canCancel: true,
      canSign: false,
    })
    await until(() => wallet.pending.switchChain.length === 1)
    expect(wallet.pending.switchChain[0]?.chainId).toBe('eip155:8453')
    wallet.pending.switchChain[0]?.resolve()
    await until(() => outcome(actor)?.kind === 'switchChain')
    expect(outcome(actor)?.error).toBeNull()
    await until(() => view(actor).chainId === 'eip155:8453')
    expect(view(actor).status).toBe('connected')
  })

  it('error: a rejection, CANCEL and walletAnswerMs settle it and keep the connection and chain', async () => {
    for (const end of ['reject', 'CANCEL', 'timeout'] as const) {
      const { actor, wallet } = await connected()
      if (end === 'timeout') actor.getSnapshot().context.timeouts.walletAnswerMs = 10
      send(actor, { type: 'SWITCH_CHAIN', chainId: 'eip155:8453' })
      await until(() => wallet.pending.switchChain.length === 1)
      if (end === 'reject')
        wallet.pending.switchChain[0]?.reject(new AppError('USER_REJECTED', 'declined'))
      if (end === 'CANCEL') send(actor, { type: 'CANCEL' })
      await until(() => outcome(actor)?.kind === 'switchChain')
      expect(outcome(actor)?.error?.code).toBe(
        { reject: 'USER_REJECTED', CANCEL: 'ABORTED', timeout: 'TIMEOUT' }[end],
      )
      expect(view(actor)).toMatchObject({ status: 'connected', chainId: 'eip155:1' })
      // The next flow works.
      send(actor, SIGN)
      await until(() => wallet.pending.request.length === 1)
      wallet.pending.request[0]?.resolve(SIGNATURE)
      await until(() => outcome(actor)?.kind === 'sign')
      expect(outcome(actor)?.error).toBeNull()
    }
  })

  it('switchingChain: the wallet disconnecting settles NOT_CONNECTED; chainChanged is followed; DISCONNECT ends it', async () => {
    const a = await connected()
    send(a.actor, { type: 'SWITCH_CHAIN', chainId: 'eip155:8453' })
    a.wallet.emit({ type: 'chainChanged', chainId: 'eip155:8453' })
    await until(() => view(a.actor).chainId === 'eip155:8453')
    expect(view(a.actor).status).toBe('switchingChain')
    a.wallet.emit({ type: 'disconnect' })
    await until(() => outcome(a.actor)?.kind === 'switchChain')
    expect(outcome(a.actor)?.error?.code).toBe('NOT_CONNECTED')
    expect(view(a.actor).status).toBe('disconnected')

    const b = await connected()
    send(b.actor, { type: 'SWITCH_CHAIN', chainId: 'eip155:8453' })
    send(b.actor, { type: 'DISCONNECT' })
    expect(outcome(b.actor)).toMatchObject({ kind: 'switchChain', error: { code: 'ABORTED' } })
    expect(view(b.actor).status).toBe('disconnecting')
  })
})

describe('client machine: a universal-link wallet', () => {
  async function linked() {
    const t = start({ link: true })
    send(t.actor, {
      type: 'SELECT_WALLET',
      walletId: 'phantom',
      namespace: 'solana',
      connect: true,
    })
    await until(() => view(t.actor).status === 'awaitingWallet')
    return t
  }

  it('SELECT_WALLET to a link wallet invokes the flow; connected when the wallet connects', async () => {
    const { actor, backend } = await linked()
    expect(view(actor)).toMatchObject({ connectionKind: 'universal-link', canCancel: true })
    expect(backend.opened).toEqual(['connect'])
    backend.answer('s1', 'connected')
    await until(() => view(actor).status === 'connected')
    expect(view(actor).address).toBe(LINK_ADDRESS)
    expect(outcome(actor)).toMatchObject({ kind: 'connect', error: null })
  })

  it('SELECT_WALLET without connect waits in disconnected; CONNECT starts the flow', async () => {
    const { actor, backend } = start({ link: true })
    send(actor, { type: 'SELECT_WALLET', walletId: 'phantom', namespace: 'solana', connect: false })
    await until(() => view(actor).status === 'disconnected')
    await tick()
    expect(backend.opened).toEqual([])
    expect(actor.getSnapshot().children.universalLink).toBeUndefined()
    expect(view(actor).status).toBe('disconnected')
    send(actor, { type: 'CONNECT' })
    await until(() => view(actor).status === 'awaitingWallet')
  })

  it('the flow failing (an action throws) settles its error and returns to disconnected', async () => {
    const { actor } = start({ link: true, flowThrows: true })
    send(actor, { type: 'SELECT_WALLET', walletId: 'phantom', namespace: 'solana', connect: true })
    await until(() => outcome(actor)?.kind === 'connect')
    expect(outcome(actor)?.error?.code).toBe('SESSION_FAILED')
    expect(view(actor)).toMatchObject({ status: 'disconnected', canRetry: true })
    expect(actor.getSnapshot().children.universalLink).toBeUndefined()
  })

  it('SIGN returns to connected with the signature; DISCONNECT ends the flow', async () => {
    const { actor, backend } = await linked()
    backend.answer('s1', 'connected')
    await until(() => view(actor).status === 'connected')
    send(actor, SIGN)
    await until(() => view(actor).status === 'awaitingSignature')
    backend.answer('s1', 'signed')
    await until(() => outcome(actor)?.kind === 'sign')
    expect(outcome(actor)).toMatchObject({ error: null, signature: linkSignature('s1') })
    expect(view(actor).status).toBe('connected')
    expect(actor.getSnapshot().context.connection?.accounts).toEqual([LINK_ADDRESS])
    send(actor, { type: 'DISCONNECT' })
    expect(view(actor).status).toBe('disconnected')
    expect(outcome(actor)).toMatchObject({ kind: 'disconnect', error: null })
    expect(actor.getSnapshot().context.connection).toBeNull()
    await tick()
    expect(actor.getSnapshot().children.universalLink).toBeUndefined()
  })

  it('the flow ending (rejection) settles its error; CANCEL and DISCONNECT settle ABORTED', async () => {
    const a = await linked()
    a.backend.answer('s1', 'rejected')
    await until(() => outcome(a.actor)?.kind === 'connect')
    expect(outcome(a.actor)?.error?.code).toBe('USER_REJECTED')
    expect(view(a.actor).status).toBe('disconnected')

    for (const type of ['CANCEL', 'DISCONNECT'] as const) {
      const b = await linked()
      send(b.actor, { type })
      expect(outcome(b.actor)?.error?.code).toBe('ABORTED')
      expect(view(b.actor).status).toBe('disconnected')
    }
  })

  it('walletAnswerMs and signatureMs end a universal-link wait', async () => {
    const a = start({ link: true, timeouts: { walletAnswerMs: 15 } })
    send(a.actor, {
      type: 'SELECT_WALLET',
      walletId: 'phantom',
      namespace: 'solana',
      connect: true,
    })
    await until(() => outcome(a.actor)?.kind === 'connect')
    expect(outcome(a.actor)?.error?.code).toBe('TIMEOUT')
    expect(view(a.actor).status).toBe('disconnected')

    const b = start({ link: true, timeouts: { signatureMs: 15 } })
    send(b.actor, {
      type: 'SELECT_WALLET',
      walletId: 'phantom',
      namespace: 'solana',
      connect: true,
    })
    await until(() => view(b.actor).status === 'awaitingWallet')
    b.backend.answer('s1', 'connected')
    await until(() => view(b.actor).status === 'connected')
    send(b.actor, SIGN)
    await until(() => outcome(b.actor)?.kind === 'sign')
    expect(outcome(b.actor)?.error?.code).toBe('TIMEOUT')
    expect(view(b.actor).status).toBe('disconnected')
    // The flow ended there: the wallet was not asked to connect again.
    await tick()
    expect(b.backend.opened).toEqual(['connect', 'sign'])
    expect(b.actor.getSnapshot().children.universalLink).toBeUndefined()
  })

  it('behavior: result polls failing and recovering are kept in every flow state (the step to connected too)', async () => {
    // connecting's and signing's own guarded LINK.CHANGED handlers must not hide the polls' state.
    const t = await linked()
    const linkPolls = () => t.actor.getSnapshot().context.linkPolls
    t.backend.polls.failWith = 503
    await until(() => linkPolls()?.last === 'HTTP 503')
    // The poll that recovers brings the wallet's answer: connected, with no poll trouble.
    // The next poll comes after the failure's backoff (1 s, jittered by ±25 %): a longer wait.
    t.backend.polls.failWith = null
    t.backend.answer('s1', 'connected')
    await until(() => view(t.actor).status === 'connected', 2_500)
    expect(linkPolls()).toBeNull()
    send(t.actor, SIGN)
    await until(() => view(t.actor).status !== 'connected')
    t.backend.polls.failWith = 502
    await until(() => linkPolls()?.last === 'HTTP 502')
    t.backend.polls.failWith = null
    t.backend.answer('s1', 'signed')
    await until(() => outcome(t.actor)?.kind === 'sign', 2_500)
    expect(outcome(t.actor)?.error).toBeNull()
    expect(linkPolls()).toBeNull()
  })

  it("error: result polls failing at the deadline — the TIMEOUT says the backend did not return the wallet's answer", async () => {
    // Issue 27: only polls that succeeded ("pending") say the wallet did not answer.
    const a = start({ link: true, timeouts: { walletAnswerMs: 200 } })
    a.backend.polls.failWith = 503
    send(a.actor, {
      type: 'SELECT_WALLET',
      walletId: 'phantom',
      namespace: 'solana',
      connect: true,
    })
    await until(() => outcome(a.actor)?.kind === 'connect')
    expect(outcome(a.actor)?.error).toEqual({
      code: 'TIMEOUT',
      message:
        "The backend did not return the wallet's answer in time (1 poll failed; last: HTTP 503).",
    })
    expect(view(a.actor)).toMatchObject({ status: 'disconnected', error: outcome(a.actor)?.error })
    // The next flow starts with no poll trouble: its timeout, with polls answering, is the wallet's.
    a.backend.polls.failWith = null
    const first = outcome(a.actor)?.flow ?? 0
    send(a.actor, { type: 'CONNECT' })
    await until(() => (outcome(a.actor)?.flow ?? 0) > first)
    expect(outcome(a.actor)?.kind).toBe('connect')
    expect(outcome(a.actor)?.error?.message).toBe('The wallet did not answer in time.')

    const b = start({ link: true, timeouts: { signatureMs: 200 } })
    send(b.actor, {
      type: 'SELECT_WALLET',
      walletId: 'phantom',
      namespace: 'solana',
      connect: true,
    })
    await until(() => view(b.actor).status === 'awaitingWallet')
    b.backend.answer('s1', 'connected')
    await until(() => view(b.actor).status === 'connected')
    b.backend.polls.failWith = 502
    send(b.actor, SIGN)
    await until(() => outcome(b.actor)?.kind === 'sign')
    expect(outcome(b.actor)?.error).toEqual({
      code: 'TIMEOUT',
      message:
        "The backend did not return the wallet's signature in time (1 poll failed; last: HTTP 502).",
    })
  })
})

describe('client machine: a wallet paired over the relay', () => {
  async function paired(options: Parameters<typeof start>[0] = {}) {
    const t = start(options)
    send(t.actor, PAIR())
    await until(() => t.relay.pending.approval.length === 1)
    t.relay.approve()
    await until(() => view(t.actor).status === 'connected')
    return t
  }
  const REQUEST: ClientEvent = { type: 'RELAY.REQUEST', requestId: 'r1', method: 'personal_sign' }

  it('PAIR invokes the pairing child: pairing with the URI, then connected when the wallet approves', async () => {
    const t = start()
    send(t.actor, PAIR())
    expect(view(t.actor)).toMatchObject({
      status: 'pairing',
      pairingUri: PAIRING_URI,
      connectionKind: 'relay',
      isBusy: true,
      canCancel: true,
      canConnect: false,
      pending: 'pair',
    })
    expect(t.actor.getSnapshot().children.pairing).toBeDefined()
    await until(() => t.relay.pending.approval.length === 1)
    t.relay.approve()
    await until(() => view(t.actor).status === 'connected')
    expect(view(t.actor)).toMatchObject({
      isConnected: true,
      canSign: true,
      canCancel: false,
      address: ACCOUNT,
      chainId: 'eip155:1',
      pairingUri: null,
    })
    expect(outcome(t.actor)).toMatchObject({ kind: 'pair', error: null })
  })

  it('the pairing ending (a rejection, an expiry) settles its error and returns to idle', async () => {
    const a = start()
    send(a.actor, PAIR())
    await until(() => a.relay.pending.approval.length === 1)
    a.relay.pending.approval[0]?.reject(new AppError('USER_REJECTED', 'no'))
    await until(() => outcome(a.actor)?.kind === 'pair')
    expect(outcome(a.actor)?.error?.code).toBe('USER_REJECTED')
    expect(view(a.actor)).toMatchObject({ status: 'idle', connectionKind: null, pairingUri: null })
    expect(a.actor.getSnapshot().children.pairing).toBeUndefined()
  })

  it('pairing: no answer within walletAnswerMs settles TIMEOUT and returns to idle', async () => {
    const { actor } = start({ timeouts: { walletAnswerMs: 20 } })
    send(actor, PAIR())
    expect(view(actor).status).toBe('pairing')
    await until(() => outcome(actor)?.kind === 'pair')
    expect(outcome(actor)?.error?.code).toBe('TIMEOUT')
    expect(view(actor)).toMatchObject({ status: 'idle', pairingUri: null })
    expect(actor.getSnapshot().children.pairing).toBeUndefined()
  })

  it('the pairing child failing settles RELAY_ERROR and returns to idle', async () => {
    const { actor } = start({ relayThrows: true })
    send(actor, PAIR())
    await until(() => outcome(actor)?.kind === 'pair')
    expect(outcome(actor)?.error?.code).toBe('RELAY_ERROR')
    expect(view(actor)).toMatchObject({ status: 'idle', connectionKind: null })
  })

  it('pairing: CANCEL settles ABORTED; a new PAIR or SELECT_WALLET replaces it (ABORTED)', async () => {
    const a = start()
    send(a.actor, PAIR())
    send(a.actor, { type: 'CANCEL' })
    expect(outcome(a.actor)).toMatchObject({ kind: 'pair', error: { code: 'ABORTED' } })
    expect(view(a.actor)).toMatchObject({ status: 'idle', pairingUri: null, connectionKind: null })
    expect(a.actor.getSnapshot().children.pairing).toBeUndefined()

    const b = start()
    send(b.actor, PAIR())
    const first = b.actor.getSnapshot().children.pairing
    send(b.actor, PAIR())
    expect(outcome(b.actor)).toMatchObject({ kind: 'pair', error: { code: 'ABORTED' } })
    expect(first?.getSnapshot().status).toBe('stopped')
    expect(view(b.actor).status).toBe('pairing')
    send(b.actor, select())
    expect(outcome(b.actor)).toMatchObject({ kind: 'pair', error: { code: 'ABORTED' } })
    expect(view(b.actor)).toMatchObject({ status: 'selecting', pairingUri: null })
  })

  it('RELAY.REQUEST: awaitingSignature, then the answer settles the flow and the session stays', async () => {
    const { actor, relay } = await paired()
    send(actor, REQUEST)
    expect(view(actor)).toMatchObject({
      status: 'awaitingSignature',
      canCancel: true,
      isConnected: true,
    })
    await until(() => relay.pending.request.length === 1)
    relay.pending.request[0]?.resolve({ at: Date.now() })
    await until(() => outcome(actor)?.kind === 'sign')
    expect(outcome(actor)).toMatchObject({ error: null, signature: null })
    expect(view(actor)).toMatchObject({ status: 'connected', canSign: true })
  })

  it('signing: a failed request, CANCEL and signatureMs settle it and keep the session', async () => {
    for (const end of ['fail', 'CANCEL', 'timeout'] as const) {
      const { actor, relay } = await paired()
      if (end === 'timeout') actor.getSnapshot().context.timeouts.signatureMs = 10
      send(actor, REQUEST)
      await until(() => relay.pending.request.length === 1)
      if (end === 'fail') relay.pending.request[0]?.reject(new AppError('USER_REJECTED', 'no'))
      if (end === 'CANCEL') send(actor, { type: 'CANCEL' })
      await until(() => outcome(actor)?.kind === 'sign')
      expect(outcome(actor)?.error?.code).toBe(
        { fail: 'USER_REJECTED', CANCEL: 'ABORTED', timeout: 'TIMEOUT' }[end],
      )
      expect(view(actor)).toMatchObject({ status: 'connected', isConnected: true })
    }
  })

  it('behavior: a request given up (CANCEL, signatureMs, an account change) is abandoned in the pairing; the next goes out at once', async () => {
    // Issue 30: the pairing kept waiting for the given-up request (300 s) and queued the next.
    for (const end of ['CANCEL', 'timeout', 'account'] as const) {
      const { actor, relay } = await paired()
      const pairing = () =>
        (actor.getSnapshot().children.pairing as ActorRefFrom<PairingMachine>).getSnapshot()
      if (end === 'timeout') actor.getSnapshot().context.timeouts.signatureMs = 10
      send(actor, REQUEST)
      await until(() => relay.pending.request.length === 1)
      if (end === 'CANCEL') send(actor, { type: 'CANCEL' })
      if (end === 'account') {
        relay.wallet.sendBack?.({
          type: 'PEER.ACCOUNTS',
          chainId: 'eip155:1',
          accounts: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'],
        } as EventObject)
      }
      await until(() => outcome(actor)?.kind === 'sign')
      expect(outcome(actor)?.error?.code).toBe(
        { CANCEL: 'ABORTED', timeout: 'TIMEOUT', account: 'ACCOUNT_CHANGED' }[end],
      )
      expect(pairing().matches({ active: { flow: { paired: 'idle' } } })).toBe(true)
      expect(pairing().context.lastRequest).toMatchObject({
        requestId: 'r1',
        status: 'failed',
        error: { code: 'ABORTED' },
      })
      actor.getSnapshot().context.timeouts.signatureMs = 60_000
      const first = outcome(actor)?.flow ?? 0
      send(actor, { ...REQUEST, requestId: 'r2' } as ClientEvent)
      await until(() => relay.pending.request.length === 2)
      relay.pending.request[1]?.resolve({ at: Date.now() })
      await until(() => (outcome(actor)?.flow ?? 0) > first)
      expect(outcome(actor)).toMatchObject({ kind: 'sign', error: null })
      expect(pairing().context.lastRequest).toMatchObject({ requestId: 'r2', status: 'answered' })
    }
  })

  it('behavior: the wallet ending the session while signing settles NOT_CONNECTED; nothing is sent to the ended pairing', async () => {
    const warn = vi.spyOn(console, 'warn')
    try {
      const { actor, relay } = await paired()
      send(actor, REQUEST)
      await until(() => relay.pending.request.length === 1)
      relay.wallet.sendBack?.({ type: 'PEER.DELETED', code: 6000, message: 'bye' } as EventObject)
      await until(() => view(actor).status === 'idle')
      expect(outcome(actor)?.error?.code).toBe('NOT_CONNECTED')
      expect(warn.mock.calls.filter(([line]) => String(line).includes('stopped actor'))).toEqual([])
    } finally {
      warn.mockRestore()
    }
  })

  it("error: the relay connection down at the deadline — the TIMEOUT says the relay did not deliver the wallet's answer", async () => {
    // Issue 27: only a wait on a connection that was up says the wallet did not answer.
    const a = await paired()
    a.actor.getSnapshot().context.timeouts.signatureMs = 100
    send(a.actor, REQUEST)
    await until(() => a.relay.pending.request.length === 1)
    a.relay.relayStatus('reconnecting', { code: 'RELAY_ERROR', message: 'token', status: 503 })
    await until(() => outcome(a.actor)?.kind === 'sign')
    expect(outcome(a.actor)?.error).toEqual({
      code: 'TIMEOUT',
      message:
        "The relay did not deliver the wallet's signature in time (the connection to the relay is down; last: HTTP 503).",
    })
    expect(view(a.actor)).toMatchObject({ status: 'connected', error: outcome(a.actor)?.error })
    // Back online: the next wait that times out is the wallet's.
    a.relay.relayStatus('online')
    const first = outcome(a.actor)?.flow ?? 0
    send(a.actor, { ...REQUEST, requestId: 'r2' } as ClientEvent)
    await until(() => (outcome(a.actor)?.flow ?? 0) > first)
    expect(outcome(a.actor)?.error?.message).toBe('The wallet did not sign in time.')

    const b = start({ timeouts: { walletAnswerMs: 100 } })
    send(b.actor, PAIR())
    await until(() => b.relay.pending.approval.length === 1)
    b.relay.relayStatus('reconnecting', { code: 'RELAY_ERROR', message: 'socket closed' })
    await until(() => outcome(b.actor)?.kind === 'pair')
    expect(outcome(b.actor)?.error).toEqual({
      code: 'TIMEOUT',
      message:
        "The relay did not deliver the wallet's answer to the pairing in time (the connection to the relay is down; last: the relay did not answer).",
    })
  })

  it('behavior: the relay connection going down and back is kept in every relay state (paired too)', async () => {
    // A state's own guarded PAIRING.CHANGED handler (pairing → paired, paired's account changes)
    // must not hide the relay connection's state from the timeout messages that read it.
    const t = start()
    const relayDown = () => t.actor.getSnapshot().context.relayDown
    send(t.actor, PAIR())
    await until(() => t.relay.pending.approval.length === 1)
    t.relay.relayStatus('reconnecting', { code: 'RELAY_ERROR', message: 'token', status: 503 })
    await until(() => relayDown() === 'HTTP 503')
    // Approved while the relay is down: paired, and still down.
    t.relay.approve()
    await until(() => view(t.actor).status === 'connected')
    expect(relayDown()).toBe('HTTP 503')
    t.relay.relayStatus('online')
    await until(() => relayDown() === null)
    t.relay.relayStatus('reconnecting', { code: 'RELAY_ERROR', message: 'socket closed' })
    await until(() => relayDown() === 'the relay did not answer')
    t.relay.relayStatus('online')
    await until(() => relayDown() === null)
    expect(view(t.actor).status).toBe('connected')
  })

  it('DISCONNECT (paired or signing): disconnecting, then idle once the delete is sent', async () => {
    for (const from of ['paired', 'signing'] as const) {
      const { actor, relay } = await paired()
      if (from === 'signing') send(actor, REQUEST)
      send(actor, { type: 'DISCONNECT' })
      expect(view(actor)).toMatchObject({ status: 'disconnecting', isBusy: true })
      await until(() => relay.pending.delete.length === 1)
      relay.pending.delete[0]?.resolve({ at: Date.now() })
      await until(() => view(actor).status === 'idle')
      expect(outcome(actor)).toMatchObject({ kind: 'disconnect', error: null })
      expect(view(actor)).toMatchObject({ isConnected: false, connectionKind: null })
    }
  })

  it('disconnecting ends after walletAnswerMs when the delete hangs', async () => {
    const { actor, relay } = await paired()
    actor.getSnapshot().context.timeouts.walletAnswerMs = 10
    send(actor, { type: 'DISCONNECT' })
    await until(() => relay.pending.delete.length === 1)
    await until(() => view(actor).status === 'idle')
    expect(outcome(actor)).toMatchObject({ kind: 'disconnect', error: null })
  })

  it('the wallet deleting the session ends it: NOT_CONNECTED, idle', async () => {
    const { actor, relay } = await paired()
    relay.wallet.sendBack?.({ type: 'PEER.DELETED', code: 6000, message: 'bye' } as EventObject)
    await until(() => view(actor).status === 'idle')
    expect(view(actor).error?.code).toBe('NOT_CONNECTED')
  })
})

describe('client machine: deadlines survive a restore', () => {
  afterEach(() => {
    vi.useRealTimers()
  })
  const T0 = 1_700_000_000_000
  const selectLink: ClientEvent = {
    type: 'SELECT_WALLET',
    walletId: 'phantom',
    namespace: 'solana',
    connect: true,
  }

  it('walletAnswerMs: a root restored mid-wait times out at the original deadline', async () => {
    vi.useFakeTimers({ now: T0 })
    const t = start({ link: true, pollMs: 5_000, timeouts: { walletAnswerMs: 30_000 } })
    send(t.actor, selectLink)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(view(t.actor).status).toBe('awaitingWallet')
    expect(t.actor.getSnapshot().context.deadline?.at).toBe(T0 + 30_000)
    const saved = JSON.parse(JSON.stringify(t.actor.getPersistedSnapshot()))
    t.actor.stop()

    const restored = t.restore(saved)
    expect(view(restored).status).toBe('awaitingWallet')
    await vi.advanceTimersByTimeAsync(19_999)
    expect(outcome(restored)?.kind).not.toBe('connect')
    expect(view(restored).status).toBe('awaitingWallet')
    await vi.advanceTimersByTimeAsync(1)
    expect(outcome(restored)).toMatchObject({ kind: 'connect', error: { code: 'TIMEOUT' } })
    expect(view(restored).status).toBe('disconnected')
  })

  it('signatureMs: a root restored mid-signature times out at the original deadline', async () => {
    vi.useFakeTimers({ now: T0 })
    const t = start({ link: true, pollMs: 5_000, timeouts: { signatureMs: 20_000 } })
    send(t.actor, selectLink)
    await vi.advanceTimersByTimeAsync(1)
    t.backend.answer('s1', 'connected')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(view(t.actor).status).toBe('connected')
    const signAt = Date.now()
    send(t.actor, SIGN)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(view(t.actor).status).toBe('awaitingSignature')
    const saved = JSON.parse(JSON.stringify(t.actor.getPersistedSnapshot()))
    t.actor.stop()

    const restored = t.restore(saved)
    expect(view(restored).status).toBe('awaitingSignature')
    await vi.advanceTimersByTimeAsync(signAt + 20_000 - Date.now() - 1)
    expect(outcome(restored)?.kind).not.toBe('sign')
    await vi.advanceTimersByTimeAsync(1)
    expect(outcome(restored)).toMatchObject({ kind: 'sign', error: { code: 'TIMEOUT' } })
  })
})

describe('createDeferredInspector: events wait for the inspector that loads later', () => {
  const inspection = (n: number) => ({ type: `@test.${n}` }) as unknown as InspectionEvent
  /** A load the test settles by hand. */
  function manualLoad() {
    const calls: { resolve: (f: (e: InspectionEvent) => void) => void; reject: () => void }[] = []
    const load = () =>
      new Promise<(e: InspectionEvent) => void>((resolve, reject) => {
        calls.push({ resolve, reject: () => reject(new Error('chunk failed')) })
      })
    return { calls, load }
  }
  const types = (events: InspectionEvent[]) => events.map((e) => e.type)

  it('delivers nothing before the load, then every event in order, then each at once', async () => {
    const { calls, load } = manualLoad()
    const seen: InspectionEvent[] = []
    const inspect = createDeferredInspector(load)
    inspect(inspection(1))
    inspect(inspection(2))
    expect(calls).toHaveLength(1)
    expect(seen).toEqual([])
    calls[0]?.resolve((e) => seen.push(e))
    await tick()
    expect(types(seen)).toEqual(['@test.1', '@test.2'])
    inspect(inspection(3))
    expect(types(seen)).toEqual(['@test.1', '@test.2', '@test.3'])
    expect(calls).toHaveLength(1)
  })

  it('keeps the events of a failed load and retries with the next event', async () => {
    const { calls, load } = manualLoad()
    const seen: InspectionEvent[] = []
    const inspect = createDeferredInspector(load)
    inspect(inspection(1))
    calls[0]?.reject()
    await tick()
    expect(seen).toEqual([])
    inspect(inspection(2))
    expect(calls).toHaveLength(2)
    calls[1]?.resolve((e) => seen.push(e))
    await tick()
    expect(types(seen)).toEqual(['@test.1', '@test.2'])
  })

  it('an event raised while the waiting ones drain comes after them', async () => {
    const { calls, load } = manualLoad()
    const seen: InspectionEvent[] = []
    const inspect = createDeferredInspector(load)
    inspect(inspection(1))
    inspect(inspection(2))
    calls[0]?.resolve((e) => {
      seen.push(e)
      if ((e.type as string) === '@test.1') inspect(inspection(3))
    })
    await tick()
    expect(types(seen)).toEqual(['@test.1', '@test.2', '@test.3'])
  })
})

describe('createSecretRegistry', () => {
  it("replaces every registered secret of 8 characters or more by the logger's REDACTED", () => {
    const secrets = createSecretRegistry()
    secrets.add('token-0123456789')
    secrets.add('short')
    expect(secrets.redact('a token-0123456789 b token-0123456789 short')).toBe(
      `a ${REDACTED} b ${REDACTED} short`,
    )
    expect(REDACTED).toBe('[redacted]')
  })
})

const SEND: ClientEvent = {
  type: 'SEND_TRANSACTION',
  input: {
    request: {
      chainId: 'eip155:1',
      from: CONNECTION.accounts[0] ?? '',
      calls: [{ to: CONNECTION.accounts[0] ?? '', value: '0x1', data: null }],
      fields: {},
      transaction: null,
    },
  },
}
const transactionStage = (actor: ClientActor) => view(actor).transaction?.stage

describe('client machine: one wallet request at a time (issue 27)', () => {
  it('SEND_TRANSACTION: busy while the wallet is asked; SIGN and SWITCH_CHAIN are not taken; the hash settles it', async () => {
    const t = await connected()
    send(t.actor, SEND)
    await until(() => t.sends.length === 1)
    expect(view(t.actor)).toMatchObject({ isBusy: true, canSign: false, pending: 'transaction' })
    const flow = t.actor.getSnapshot().context.flow
    send(t.actor, SIGN)
    send(t.actor, { type: 'SWITCH_CHAIN', chainId: 'eip155:10' })
    expect(t.actor.getSnapshot().context).toMatchObject({ flow, pending: 'transaction' })
    expect(view(t.actor).status).toBe('connected')
    t.sends[0]?.resolve(`0x${'ab'.repeat(32)}`)
    await until(() => outcome(t.actor)?.flow === flow)
    expect(outcome(t.actor)).toMatchObject({ error: null, signature: `0x${'ab'.repeat(32)}` })
    expect(view(t.actor)).toMatchObject({ isBusy: false, canSign: true })
    // Once answered, SIGN is taken again.
    send(t.actor, SIGN)
    expect(view(t.actor).status).toBe('signing')
  })

  it.each([
    ['USER_REJECTED', { code: 4001, message: 'User rejected the request.' }],
    ['WALLET_ERROR', new Error('the wallet broke')],
  ] as const)(
    'error: the wallet answers no hash: the flow settles %s and the next transaction is taken',
    async (code, failure) => {
      const t = await connected()
      send(t.actor, SEND)
      await until(() => t.sends.length === 1)
      const flow = t.actor.getSnapshot().context.flow
      t.sends[0]?.reject(failure)
      await until(() => outcome(t.actor)?.flow === flow)
      expect(outcome(t.actor)).toMatchObject({ kind: 'transaction', error: { code } })
      expect(view(t.actor)).toMatchObject({ isBusy: false, pending: null, status: 'connected' })
      send(t.actor, SEND)
      await until(() => t.sends.length === 2)
      expect(t.actor.getSnapshot().context).toMatchObject({
        flow: flow + 1,
        pending: 'transaction',
      })
    },
  )

  it.each(['CANCEL', 'DISCONNECT'] as const)(
    '%s while the wallet is asked settles ABORTED (saying so) and leaves the child waiting: the hash still reaches the view',
    async (type) => {
      const t = await connected()
      send(t.actor, SEND)
      await until(() => t.sends.length === 1)
      const flow = t.actor.getSnapshot().context.flow
      send(t.actor, { type })
      expect(outcome(t.actor)).toMatchObject({
        flow,
        kind: 'transaction',
        error: { code: 'ABORTED' },
      })
      expect(outcome(t.actor)?.error?.message).toContain('may still send it')
      expect(transactionStage(t.actor)).toBe('awaitingWallet')
      expect(view(t.actor).isBusy).toBe(true)
      t.sends[0]?.resolve(`0x${'cd'.repeat(32)}`)
      await until(() => transactionStage(t.actor) === 'submitted')
      expect(view(t.actor).transaction?.hash).toBe(`0x${'cd'.repeat(32)}`)
      // The late answer settles no flow: the given-up one stays ABORTED.
      if (type === 'CANCEL')
        expect(outcome(t.actor)).toMatchObject({ flow, error: { code: 'ABORTED' } })
    },
  )
})

describe('client machine: watching a transaction while one is sent', () => {
  const WATCH: ClientEvent = {
    type: 'WATCH_TRANSACTION',
    input: {
      request: null,
      submitted: {
        chainId: 'eip155:1',
        hash: `0x${'ee'.repeat(32)}`,
        deadlines: { wallet: null, receipt: null, notSeen: null },
      },
    },
  }

  it('error: WATCH_TRANSACTION while the wallet is asked is not taken — the flow goes on and settles with the hash', async () => {
    const t = await connected()
    send(t.actor, SEND)
    await until(() => t.sends.length === 1)
    const flow = t.actor.getSnapshot().context.flow
    const sending = t.actor.getSnapshot().children.transaction
    send(t.actor, WATCH)
    expect(t.actor.getSnapshot().children.transaction).toBe(sending)
    expect(sending?.getSnapshot().status).toBe('active')
    expect(t.actor.getSnapshot().context).toMatchObject({ flow, pending: 'transaction' })
    expect(transactionStage(t.actor)).toBe('awaitingWallet')
    t.sends[0]?.resolve(`0x${'ab'.repeat(32)}`)
    await until(() => outcome(t.actor)?.flow === flow)
    expect(outcome(t.actor)).toMatchObject({ error: null, signature: `0x${'ab'.repeat(32)}` })
    expect(view(t.actor).transaction?.hash).toBe(`0x${'ab'.repeat(32)}`)
  })

  it('behavior: with no transaction flow pending, WATCH_TRANSACTION replaces the watched one', async () => {
    const t = await connected()
    send(t.actor, SEND)
    await until(() => t.sends.length === 1)
    t.sends[0]?.resolve(`0x${'ab'.repeat(32)}`)
    await until(() => t.actor.getSnapshot().context.pending === null)
    const sent = t.actor.getSnapshot().children.transaction
    send(t.actor, WATCH)
    expect(sent?.getSnapshot().status).toBe('stopped')
    // Beside the connection: the wallet stays connected, no flow starts.
    expect(view(t.actor)).toMatchObject({
      status: 'connected',
      isConnected: true,
      pending: 'transaction',
      transaction: { hash: `0x${'ee'.repeat(32)}`, stage: 'submitted' },
    })
    expect(t.actor.getSnapshot().context.pending).toBeNull()
  })
})

describe('client machine: an account change during a signature (issue 27)', () => {
  it('signing: another active account settles ACCOUNT_CHANGED, back to connected with the new account; the same accounts re-announced do not', async () => {
    const t = await connected()
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    send(t.actor, SIGN)
    await until(() => t.wallet.pending.request.length === 1)
    // Re-announced, unchanged (case aside): still signing.
    t.wallet.emit({
      type: 'accountsChanged',
      accounts: [(CONNECTION.accounts[0] ?? '').toLowerCase()],
    })
    await tick()
    expect(view(t.actor).status).toBe('signing')
    t.wallet.emit({ type: 'accountsChanged', accounts: [other] })
    await until(() => outcome(t.actor)?.kind === 'sign')
    expect(outcome(t.actor)?.error?.code).toBe('ACCOUNT_CHANGED')
    expect(view(t.actor)).toMatchObject({ status: 'connected', address: other })
    // The late signature settles nothing; the next SIGN is asked.
    t.wallet.pending.request[0]?.resolve(SIGNATURE)
    send(t.actor, SIGN)
    await until(() => t.wallet.pending.request.length === 2)
    t.wallet.pending.request[1]?.resolve(SIGNATURE)
    await until(() => outcome(t.actor)?.error === null)
    expect(outcome(t.actor)).toMatchObject({ kind: 'sign', signature: SIGNATURE })
  })
})
