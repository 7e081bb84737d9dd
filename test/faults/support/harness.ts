import { getWallets } from '@wallet-standard/app'
import fc from 'fast-check'
import type { Hex } from 'viem'
import { vi } from 'vitest'
import type { InspectionEvent } from 'xstate'
import { createWalletSimulator } from '../../../examples/wallet-simulator/src/index'
import {
  createRelayWalletSimulator,
  type RelayWalletSimulator,
} from '../../../examples/wallet-simulator/src/relay'
import { isResumableTree } from '../../../machines/client/client.persistence'
import { Client, type ClientOptions } from '../../../src/client'
import { Eip1193Connector } from '../../../src/connectors/eip1193'
import { Eip6963Connector } from '../../../src/connectors/eip6963'
import { SolanaInjectedConnector } from '../../../src/connectors/solana-injected'
import { AppError, type AppErrorCode } from '../../../src/errors/app-error'
import {
  BACKEND_FAULTS,
  type BackendFault,
  JUNK_WALLET_ANSWER,
  WALLET_ANSWERS,
  type WalletAnswer,
} from '../../../src/testing/doubles/answers'
import {
  TEST_APP_KEY as APP_KEY,
  TEST_BASE_URL as BASE_URL,
  type BackendDouble,
  createBackendDouble,
} from '../../../src/testing/doubles/backend-double'
import {
  createScriptedEvmWallet,
  type ScriptedEvmWallet,
} from '../../../src/testing/doubles/evm-wallet'
import {
  TEST_PARTNER_WALLET,
  TEST_PARTNER_WALLET_ID,
} from '../../../src/testing/doubles/partner-wallet'
import {
  createScriptedSolanaWallet,
  type ScriptedSolanaWallet,
} from '../../../src/testing/doubles/solana-wallet'
import {
  createRecordingLinkStore,
  createRecordingPairingStore,
  describeJsonUnsafe,
} from '../../../src/testing/doubles/stores'
import { parsePersistedState } from '../../../src/universal-link/persisted-state'
import { createRelayDouble, type RelayDouble } from '../../relay/support/relay-double'
import { APP_FAULTS, type AppFault, faultyStore, inspectorFault, jumpClock } from './app-faults'

/** The documented `AppError` codes (src/errors/app-error.ts); the type check keeps the list whole. */
const DOCUMENTED = {
  INVALID_CONFIG: true,
  UNSUPPORTED_CHAIN: true,
  RPC_ERROR: true,
  WALLET_NOT_FOUND: true,
  BACKEND_ERROR: true,
  USER_REJECTED: true,
  WALLET_UNAVAILABLE: true,
  WALLET_ERROR: true,
  NOT_CONNECTED: true,
  SESSION_EXPIRED: true,
  SESSION_FAILED: true,
  TIMEOUT: true,
  ABORTED: true,
  RELAY_ERROR: true,
  TRANSACTION_REVERTED: true,
  TRANSACTION_REPLACED: true,
  TRANSACTION_DROPPED: true,
  WALLET_BUSY: true,
  ACCOUNT_CHANGED: true,
  UNSUPPORTED_METHOD: true,
} satisfies Record<AppErrorCode, true>
export const DOCUMENTED_CODES = new Set(Object.keys(DOCUMENTED))

/** Named timeouts, small (the clock is fake; small keeps the polling between them cheap). */
export const FAULT_TIMEOUTS = {
  connectorLoadMs: 1_000,
  discoveryMs: 200,
  walletAnswerMs: 4_000,
  signatureMs: 4_000,
}
/** Past every named timeout, the HTTP timeout (10 s), the proposal TTL and the relay's waits. */
export const SETTLE_MS = 90_000
const PROPOSAL_TTL_SECONDS = 20

export const CALLS = [
  'select:metamask',
  'select:rabby',
  'select:phantom',
  'select:partner',
  'connect',
  'signMessage',
  'signTypedData',
  'signTransaction',
  'getBalance',
  'loadConfig',
  'pair:eip155',
  'pair:solana',
  'cancel',
  'disconnect',
  'resume',
  'reload',
  'walletActs',
  'badParams',
  'wait',
] as const
export type Call = (typeof CALLS)[number]

/** One step: a public call, how every wallet and the backend/relay answer during it, then time. */
export interface Step {
  call: Call
  answer: WalletAnswer
  fault: BackendFault
  /** ms the fake clock advances after the call. */
  think: number
  /** A fault of the app's own code or of the page during the step (issue 27); default none. */
  app?: AppFault
  /** For `badParams`: a public method called with a wrong-typed parameter (issue 27). */
  bad?: BadCall
}

/** A public method and the wrong-typed parameter it gets (never a valid one). */
export interface BadCall {
  method: 'signMessage' | 'signTypedData' | 'sendTransaction' | 'getBalance' | 'switchChain'
  param: unknown
}

/** Values of the wrong type for any parameter object or string. */
const wrongTyped = fc.oneof(
  fc.constantFrom(undefined, null, 0, -1, 1.5, Number.NaN, true, 10n, [], '', Symbol('bad')),
  fc.string({ maxLength: 4 }).map((text) => [text]),
)

/**
 * Wrong-typed parameters (issue 27): a bare wrong value, or an object with one field of the wrong
 * type (`value: "1000"`, `-5n`, `to: "0x1"`, a message `{}`), never one the method accepts.
 */
export const badCallArbitrary: fc.Arbitrary<BadCall> = fc.oneof(
  fc.record({
    method: fc.constantFrom<BadCall['method']>(
      'signMessage',
      'signTypedData',
      'sendTransaction',
      'getBalance',
      'switchChain',
    ),
    param: wrongTyped,
  }),
  fc.record({
    method: fc.constant<BadCall['method']>('signMessage'),
    param: fc.constantFrom<unknown>({}, { raw: 'not hex' }, { raw: 42 }, 'x'.repeat(65_537)),
  }),
  fc.record({
    method: fc.constant<BadCall['method']>('sendTransaction'),
    param: fc.constantFrom<unknown>(
      { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '1000' },
      { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: -5n },
      { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: 1.5 },
      { to: '0x1', value: 1n },
      { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', data: 'not hex' },
      { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', nonce: 2 ** 60 },
    ),
  }),
  fc.record({
    method: fc.constant<BadCall['method']>('getBalance'),
    param: fc.constantFrom<unknown>(
      {
        chainId: 42,
        tokenAddress: 'native',
        account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      },
      { chainId: 'eip155:1', tokenAddress: 'native', account: 'not-an-address' },
      {
        chainId: 'eip155:1',
        tokenAddress: 7,
        account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      },
    ),
  }),
)

/** `FAULTS_EXCLUDE=getBalance,loadConfig` leaves calls out (to explore past a known failure). */
const EXCLUDED = new Set((process.env.FAULTS_EXCLUDE ?? '').split(',').filter(Boolean))
const INCLUDED = CALLS.filter((call) => !EXCLUDED.has(call))
/** `FAULTS_BACKEND=ok,slow` limits the backend and relay faults drawn (to explore past a known one). */
const FAULTS = process.env.FAULTS_BACKEND
  ? BACKEND_FAULTS.filter((f) => process.env.FAULTS_BACKEND?.split(',').includes(f))
  : BACKEND_FAULTS

/**
 * Connecting and signing weigh more, so most sequences reach a connection and act on it; pairing
 * (real x25519 and ChaCha20 on both sides) weighs less, for time.
 */
const WEIGHT: Partial<Record<Call, number>> = {
  connect: 8,
  signMessage: 4,
  signTypedData: 4,
  signTransaction: 3,
  'pair:eip155': 1,
  'pair:solana': 1,
}

/** `FAULTS_ANSWERS=approve,reject` limits the wallet answers drawn (to explore past a known one). */
const ANSWERS = process.env.FAULTS_ANSWERS
  ? WALLET_ANSWERS.filter((a) => process.env.FAULTS_ANSWERS?.split(',').includes(a))
  : WALLET_ANSWERS

export const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  call: fc.oneof(
    ...INCLUDED.map((call) => ({ weight: WEIGHT[call] ?? 2, arbitrary: fc.constant(call) })),
  ),
  answer: fc.oneof(
    { weight: 5, arbitrary: fc.constant<WalletAnswer>('approve') },
    { weight: 6, arbitrary: fc.constantFrom(...ANSWERS) },
  ),
  fault: fc.oneof(
    { weight: 5, arbitrary: fc.constant<BackendFault>('ok') },
    { weight: 6, arbitrary: fc.constantFrom(...FAULTS) },
  ),
  think: fc.constantFrom(0, 5, 150, 600, 2_500, 5_000),
  app: fc.oneof(
    { weight: 20, arbitrary: fc.constant<AppFault>('none') },
    { weight: 3, arbitrary: fc.constantFrom(...APP_FAULTS) },
  ),
  bad: badCallArbitrary,
})
/** A case: its steps, and whether an inspector is attached (about one case in 24: redaction makes them costly). */
export interface FaultCase {
  inspect: boolean
  steps: Step[]
}
export const caseArbitrary: fc.Arbitrary<FaultCase> = fc.record({
  inspect: fc.oneof(
    { weight: 23, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  steps: fc.array(stepArbitrary, { minLength: 1, maxLength: 30 }),
})

/** Fixed real keys (viem secp256k1, ed25519): every signature in a run is a real one. */
const EVM_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
]
const SOLANA_KEYS = [1, 2].map((n) => new Uint8Array(32).fill(n))

/** A property that failed: thrown from a step, with the step index. */
export class Violation extends Error {
  constructor(
    readonly property: string,
    detail: string,
  ) {
    super(`${property}: ${detail}`)
  }
}

interface Tracked {
  label: string
  settled: boolean
  outcome?: string
}

const realSetImmediate = globalThis.setImmediate
/** One turn of the real event loop (unhandled rejections are reported on it). */
export const realTurn = () => new Promise<void>((resolve) => realSetImmediate(resolve))

/**
 * The page's `window` for EIP-6963 announcements: one per module instance, because discovery
 * listens on the first `window` it sees for good. Each `World` installs it and removes it on
 * `dispose()`: a later file sharing the worker (`isolate: false`) must not find a `window`.
 */
export const eip6963Window: EventTarget = new EventTarget()

/** Puts `eip6963Window` in place as the page's `window`; returns the removal. */
export function installEip6963Window(): () => void {
  const g = globalThis as { window?: EventTarget }
  if (g.window !== undefined && g.window !== eip6963Window) {
    throw new Error('another window is installed: the fault harness needs the page to itself')
  }
  g.window = eip6963Window
  return () => {
    delete g.window
  }
}

const unhandled: unknown[] = []
let listening = false
function listenUnhandled() {
  if (listening) return
  listening = true
  process.on('unhandledRejection', (reason) => unhandled.push(reason))
}

const bigintSafe = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? `${value}n` : value

/**
 * An inspection event as JSON: what an inspector could ship anywhere. The redacting inspector
 * hands over plain data, which `JSON.stringify` takes as it is (every value shown, repeated ones
 * too); a raw event (`sanitizeInspection: false`) throws on its cycles or bigints and is
 * written again with bigints as text and objects seen before cut.
 */
function jsonOfEvent(event: InspectionEvent): string {
  try {
    return JSON.stringify(event)
  } catch {
    const seen = new WeakSet<object>()
    return JSON.stringify(event, (key, value) => {
      const v = bigintSafe(key, value)
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[cycle]'
        seen.add(v)
      }
      return v
    })
  }
}

/**
 * One world: the Client under test and its TEST DOUBLES — a backend (`fetchImpl`), a relay
 * (`WebSocket` class), an injected EIP-1193 wallet (MetaMask), an EIP-6963 wallet (Rabby), a Wallet
 * Standard Solana wallet (Phantom), the universal-link reference wallet (Solflare) and the relay
 * reference wallet — every wallet signing with real keys.
 */
export class World {
  readonly backend: BackendDouble = createBackendDouble()
  readonly relay: RelayDouble = createRelayDouble()
  readonly metamask: ScriptedEvmWallet = createScriptedEvmWallet(EVM_KEYS.slice(0, 2))
  readonly rabby: ScriptedEvmWallet = createScriptedEvmWallet(EVM_KEYS.slice(2, 4))
  readonly phantom: ScriptedSolanaWallet = createScriptedSolanaWallet('Phantom', SOLANA_KEYS)
  /**
   * The universal-link wallet, made when a link first opens it: deriving its key took about 3 ms of
   * each world's set-up, and most sequences open no link.
   */
  #linkWallet: ReturnType<typeof createWalletSimulator> | undefined
  get linkWallet() {
    this.#linkWallet ??= createWalletSimulator({
      walletSlug: TEST_PARTNER_WALLET_ID,
      secretKey: SOLANA_KEYS[0],
      fetchImpl: this.backend.fetch,
    })
    return this.#linkWallet
  }
  readonly relayWallets: RelayWalletSimulator[] = []
  readonly linkStore = createRecordingLinkStore()
  readonly pairingStore = createRecordingPairingStore()
  /** The fault of the app's code in the current step. */
  appFault: AppFault = 'none'
  /** The app's stores as the Client gets them: the recording ones, failing as the step says. */
  readonly faultyLinkStore = faultyStore(this.linkStore, () => this.appFault)
  readonly faultyPairingStore = faultyStore(this.pairingStore, () => this.appFault)
  /** A stored record was corrupted before this step's reload: resume() may discard it. */
  #corrupted = false
  readonly events: InspectionEvent[] = []
  /** Signatures the wallets returned to the Client's callers (the relay wallet's included). */
  readonly signatures = new Set<string>()
  readonly tracked: Tracked[] = []
  readonly log: string[] = []
  answer: WalletAnswer = 'approve'
  client: Client
  readonly #cleanup: Array<() => void> = []
  readonly #links: string[] = []

  constructor(
    readonly inspect = true,
    /** Options over the world's own (e.g. `sanitizeInspection: false` to see the checks bite). */
    readonly overrides: Partial<ClientOptions> = {},
  ) {
    listenUnhandled()
    unhandled.length = 0
    const removeWindow = installEip6963Window()
    this.#cleanup.push(this.rabby.announce(eip6963Window, 'io.rabby'))
    this.#cleanup.push(getWallets().register(this.phantom.wallet))
    this.#cleanup.push(removeWindow)
    this.client = this.#newClient()
  }

  #options(): ClientOptions {
    return {
      baseUrl: BASE_URL,
      appKey: APP_KEY,
      fetchImpl: this.backend.fetch,
      mobile: true,
      solanaChainId: 'solana:devnet',
      partnerWallets: [TEST_PARTNER_WALLET],
      connectors: [
        new Eip1193Connector('metamask', () => this.metamask),
        new Eip6963Connector('io.rabby', { timeoutMs: 300 }),
        new SolanaInjectedConnector({ walletId: 'phantom', walletName: 'Phantom' }),
      ],
      timeouts: FAULT_TIMEOUTS,
      universalLink: {
        store: this.faultyLinkStore.store,
        openLink: (url) => this.#walletOpened(url),
        returnUrl: 'https://dapp.test/',
        dappName: 'Faults',
        pollIntervalMs: 250,
      },
      relayUrl: 'wss://backend.test/api/v1/connect/relay',
      WebSocket: this.relay.WebSocket,
      pairing: { store: this.faultyPairingStore.store },
      ...(!this.inspect
        ? {}
        : {
            inspect: (event: InspectionEvent) => {
              // Kept as is (snapshots are immutable) and serialised once, at the end.
              this.events.push(event)
              return inspectorFault(this.appFault) as undefined
            },
          }),
    }
  }

  #newClient(): Client {
    return new Client({ ...this.#options(), ...this.overrides })
  }

  /** The universal-link wallet app opens with `url` and answers as the step says, a moment later. */
  #walletOpened(url: string) {
    this.#links.push(url)
    const answer = this.answer
    setTimeout(() => {
      if (answer === 'hang' || answer === 'lock') return
      const decision = answer === 'reject' ? 'reject' : answer === 'error' ? 'fail' : 'approve'
      this.linkWallet.handle(url, decision).catch(() => undefined)
    }, 100)
  }

  /** The relay wallet scans the pairing URI and answers as the step says. */
  #walletScans(uri: string) {
    const answer = this.answer
    if (answer === 'hang' || answer === 'lock') return
    const sim = createRelayWalletSimulator({
      appKey: APP_KEY,
      baseUrl: BASE_URL,
      WebSocket: this.relay.WebSocket,
      fetchImpl: this.backend.fetch,
      proposalWaitMs: 5_000,
      evmPrivateKey: EVM_KEYS[0],
      solanaSecretKey: SOLANA_KEYS[1],
      decide: () => {
        const now = this.answer
        if (now === 'hang') return new Promise<'approve'>(() => {})
        if (now === 'error') return Promise.reject(new Error('wallet crashed'))
        return now === 'reject' || now === 'lock' ? 'reject' : 'approve'
      },
    })
    this.relayWallets.push(sim)
    const pairing = sim.wallet.pair(uri)
    if (answer === 'reject' || answer === 'error')
      pairing
        .then((p) => p.reject(answer === 'error' ? { code: -32603 } : undefined))
        .catch(() => undefined)
    else pairing.then((p) => sim.approve(p)).catch(() => undefined)
  }

  track(label: string, promise: Promise<unknown>) {
    const entry: Tracked = { label, settled: false }
    this.tracked.push(entry)
    promise.then(
      (value) => {
        entry.settled = true
        entry.outcome = 'value'
        // A signature call resolves with a signature: a non-empty string (an object for a transaction).
        const signed = value as { signature?: unknown; signedTransaction?: unknown } | null
        if (/ sign(Message|TypedData)$/.test(label) && (typeof value !== 'string' || value === ''))
          entry.outcome = `NOT A SIGNATURE: ${JSON.stringify(value)}`
        if (
          / signTransaction$/.test(label) &&
          typeof signed?.signature !== 'string' &&
          typeof signed?.signedTransaction !== 'string'
        )
          entry.outcome = `NOT A SIGNATURE: ${JSON.stringify(value)}`
        // The junk a `garbage` wallet answers is never handed to the app as a result.
        if (
          JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? String(v) : v))?.includes(
            JUNK_WALLET_ANSWER,
          )
        )
          entry.outcome = `A JUNK WALLET ANSWER ACCEPTED: ${JSON.stringify(value)}`
        if (typeof value === 'string' && value.length >= 16) this.signatures.add(value)
        if (typeof signed?.signature === 'string') this.signatures.add(signed.signature)
        if (typeof signed?.signedTransaction === 'string')
          this.signatures.add(signed.signedTransaction)
        return value
      },
      (error: unknown) => {
        entry.settled = true
        if (!(error instanceof AppError))
          entry.outcome = `NOT AN AppError: ${String(error)} ${(error as Error)?.stack ?? ''}`
        else if (!DOCUMENTED_CODES.has(error.code)) entry.outcome = `UNDOCUMENTED ${error.code}`
        else entry.outcome = error.code
      },
    )
  }

  /**
   * A public method with a wrong-typed parameter: refused `INVALID_CONFIG` whatever the state
   * (issue 27; that nothing reaches the wallet is test/regressions/issue-27.parameters.test.ts's).
   */
  #badCall(label: string, bad: BadCall | undefined) {
    if (!bad) return
    const c = this.client as unknown as Record<
      BadCall['method'],
      (param: unknown) => Promise<unknown>
    >
    const entry: Tracked = { label: `${label} ${bad.method}`, settled: false }
    this.tracked.push(entry)
    let result: Promise<unknown>
    try {
      result = Promise.resolve(c[bad.method](bad.param))
    } catch (error) {
      result = Promise.reject(error)
    }
    result.then(
      (value) => {
        entry.settled = true
        entry.outcome = `A BAD PARAMETER ACCEPTED: ${bad.method} gave ${String(value)}`
      },
      (error: unknown) => {
        entry.settled = true
        entry.outcome =
          error instanceof AppError && error.code === 'INVALID_CONFIG'
            ? 'value'
            : `A BAD PARAMETER NOT REFUSED INVALID_CONFIG: ${error instanceof AppError ? error.code : String(error)}`
      },
    )
  }

  /** Runs one public call (synchronous throws count as a settled call too). */
  #call(label: string, run: () => Promise<unknown> | unknown) {
    try {
      const result = run()
      if (result instanceof Promise) this.track(label, result)
    } catch (error) {
      this.track(label, Promise.reject(error))
    }
  }

  #faults(step: Step) {
    this.answer = step.answer
    for (const w of [this.metamask, this.rabby, this.phantom]) w.answer = step.answer
    this.backend.fault = step.fault
    this.relay.refuse = step.fault === 'down'
    this.relay.silentPings = step.fault === 'hang'
    this.relay.publishError =
      step.fault === 'status500' || step.fault === 'status503' ? -32603 : null
    if (step.fault === 'drop') this.relay.closeAll(1006, 'test double: socket dropped')
    this.appFault = step.app ?? 'none'
    jumpClock(this.appFault)
    this.#corrupted = this.appFault === 'corruptRecord' && step.call === 'reload'
    if (this.#corrupted) {
      this.faultyLinkStore.corruptNext()
      this.faultyPairingStore.corruptNext()
    }
  }

  /** Whether the stores still mirror the flows (no save or clear of the app's store was lost). */
  get storesTrusted(): boolean {
    return !this.faultyLinkStore.state.faulted && !this.faultyPairingStore.state.faulted
  }

  async step(step: Step, index: number): Promise<void> {
    this.#faults(step)
    const c = this.client
    const label = `#${index} ${step.call}`
    switch (step.call) {
      case 'select:metamask':
      case 'select:rabby':
        this.#call(label, () =>
          c.selectWallet(step.call.slice(7) as 'metamask', { namespace: 'eip155' }),
        )
        break
      case 'select:phantom':
        this.#call(label, () => c.selectWallet('phantom', { namespace: 'solana' }))
        break
      case 'select:partner':
        // The phone's sc* universal-link flow: only a partner wallet declares it.
        this.#call(label, () => c.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' }))
        break
      case 'connect':
        this.#call(label, () => c.connect())
        break
      case 'signMessage':
        this.#call(label, () => c.signMessage(`hello ${index}`))
        break
      case 'signTypedData':
        this.#call(label, () =>
          c.signTypedData({
            types: {
              EIP712Domain: [{ name: 'name', type: 'string' }],
              Mail: [
                { name: 'contents', type: 'string' },
                { name: 'amount', type: 'uint256' },
              ],
            },
            primaryType: 'Mail',
            domain: { name: 'Faults' },
            message: { contents: `step ${index}`, amount: 10n ** 20n },
          }),
        )
        break
      case 'signTransaction':
        this.#call(label, () => c.signTransaction(this.phantom.transaction()))
        break
      case 'getBalance':
        this.#call(label, () =>
          c.getBalance({
            chainId: 'eip155:1',
            tokenAddress: 'native',
            account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          }),
        )
        break
      case 'loadConfig':
        this.#call(label, () => c.loadConfig())
        break
      case 'pair:eip155':
      case 'pair:solana': {
        const namespace = step.call.slice(5) as 'eip155' | 'solana'
        this.#call(label, async () => {
          const flow = await c.pair({
            namespace,
            metadata: { name: 'Faults dApp', url: 'https://dapp.test' },
            proposalTtlSeconds: PROPOSAL_TTL_SECONDS,
          })
          this.track(`${label} approval`, flow.approval)
          if (flow.uri) this.#walletScans(flow.uri)
          return flow
        })
        break
      }
      case 'cancel':
        this.#call(label, () => c.cancel())
        break
      case 'disconnect':
        this.#call(label, () => c.disconnect())
        break
      case 'resume':
        this.#call(label, () => this.#resume(label, false))
        break
      case 'reload':
        this.#call(label, () => this.#reload(label))
        break
      case 'walletActs': {
        const what =
          step.answer === 'changeChain' || step.answer === 'lock' ? step.answer : 'changeAccount'
        this.metamask.act(what)
        this.rabby.act(what)
        this.phantom.act(what)
        break
      }
      case 'badParams':
        this.#badCall(label, step.bad)
        break
      case 'wait':
        break
    }
    await this.advance(step.think)
    this.check(label)
  }

  /** `resume()`; when the store held a live record, it must come back (not `none`, not `discarded`). */
  async #resume(label: string, afterReload: boolean) {
    const linkRecord = this.linkStore.load()
    const pairRecord = this.pairingStore.load()
    const now = Date.now()
    const result = await this.client.resume()
    this.track(`${label} wait`, result.wait())
    if ('signature' in result) this.track(`${label} signature`, result.signature())
    const live = (r: { expiresAt: number } | null) => r !== null && r.expiresAt > now
    // A corrupted record (the only one stored) is discarded, with its reason.
    if (
      afterReload &&
      this.#corrupted &&
      (linkRecord === null) !== (pairRecord === null) &&
      (result.status !== 'discarded' || result.reason === '')
    )
      this.fail('a corrupted record is discarded with a reason', `resume(): ${result.status}`)
    // A corrupted record is discarded, and a store that fails finds nothing: both may be right.
    const trusted = this.storesTrusted && !this.#corrupted && !this.appFault.startsWith('store')
    if (afterReload && trusted && (live(linkRecord) || live(pairRecord))) {
      if (result.status === 'none' || result.status === 'discarded') {
        this.fail(
          'a stored flow survives a reload',
          `resume() after reload: ${result.status}${'reason' in result ? ` (${result.reason})` : ''}`,
        )
      }
    }
    return result
  }

  /** A page reload: the old root stops (the page is gone), a new Client on the same stores resumes. */
  async #reload(label: string) {
    this.client.actor.stop()
    this.client = this.#newClient()
    return this.#resume(label, true)
  }

  readonly violations: Violation[] = []
  fail(property: string, detail: string) {
    this.violations.push(new Violation(property, detail))
  }

  async advance(ms: number) {
    await vi.advanceTimersByTimeAsync(ms)
    // Microtasks of what the last timer started (dynamic imports are cached promises).
    for (let i = 0; i < 5; i++) await Promise.resolve()
  }

  /** The invariants that hold after every step. */
  check(where: string) {
    for (const v of this.violations.splice(0))
      throw new Violation(v.property, `${where}: ${v.message}`)
    const snapshot = this.client.actor.getSnapshot()
    if (snapshot.status !== 'active')
      throw new Violation(
        'the root actor stays active',
        `${where}: status ${snapshot.status} (${describe((snapshot as { error?: unknown }).error)})`,
      )
    const view = this.client.getView()
    const connected = snapshot.hasTag('connected')
    if (view.isConnected !== connected)
      throw new Violation(
        'the view agrees with the snapshot',
        `${where}: isConnected ${view.isConnected}, tag connected ${connected} (state ${JSON.stringify(snapshot.value)})`,
      )
    if (view.isBusy !== snapshot.hasTag('busy'))
      throw new Violation('the view agrees with the snapshot', `${where}: isBusy ${view.isBusy}`)
    if (view.canCancel !== snapshot.hasTag('cancellable'))
      throw new Violation(
        'the view agrees with the snapshot',
        `${where}: canCancel ${view.canCancel}`,
      )
    if ((this.client.getConnection() !== null) !== view.isConnected)
      throw new Violation(
        'the view agrees with the snapshot',
        `${where}: getConnection vs isConnected`,
      )
    if (view.status === 'connected' && !view.isConnected)
      throw new Violation(
        'the view agrees with the snapshot',
        `${where}: status connected without a connection`,
      )
    if ((view.status === 'signing' || view.status === 'awaitingSignature') && !view.isConnected)
      throw new Violation(
        'the view agrees with the snapshot',
        `${where}: ${view.status} without a connection`,
      )
    if (view.isBusy !== (view.pending !== null))
      throw new Violation(
        'the view agrees with the snapshot',
        `${where}: isBusy ${view.isBusy} but pending ${view.pending}`,
      )
    if (view.isBusy && view.status === 'idle')
      throw new Violation('the view agrees with the snapshot', `${where}: busy while idle`)

    // A child (a read, a flow) belongs to the root while it runs, and only then (the check holds
    // whatever the read ids look like: `read-1` before the fix, `read.0` after).
    for (const [id, child] of Object.entries(
      snapshot.children as Record<string, { getSnapshot(): { status: string } } | undefined>,
    ))
      if (child && child.getSnapshot().status !== 'active')
        throw new Violation(
          'a settled read leaves no child behind',
          `${where}: ${id} is ${child.getSnapshot().status} and still a child`,
        )

    // The universal-link store: a record exactly while a resumable link flow is in place.
    const resumable = snapshot.matches('link') && isResumableTree(snapshot)
    const unsafe = this.linkStore.unsafeSaves.splice(0)
    if (unsafe.length > 0)
      throw new Violation(
        'the stored universal-link record is JSON-safe',
        `${where}: save() got a value JSON.stringify rejects: ${unsafe[0]}`,
      )
    const pairUnsafe = this.pairingStore.unsafeSaves.splice(0)
    if (pairUnsafe.length > 0)
      throw new Violation('the stored paired session is JSON-safe', `${where}: ${pairUnsafe[0]}`)
    const record = this.linkStore.load()
    // A store whose save or clear failed no longer mirrors the flow (the Client logged it).
    // A store whose save or clear failed no longer mirrors the flow (the Client logged it and
    // went on); whatever it holds must still parse back (below).
    const trusted = this.storesTrusted
    if (trusted && resumable && record === null)
      throw new Violation(
        'the store holds a record exactly while a resumable flow is pending',
        `${where}: resumable, no record`,
      )
    if (trusted && !resumable && record !== null)
      throw new Violation(
        'the store holds a record exactly while a resumable flow is pending',
        `${where}: a record, nothing resumable (${String(snapshot.value && JSON.stringify(snapshot.value))})`,
      )
    if (record !== null && parsePersistedState(JSON.parse(JSON.stringify(record))) === null)
      throw new Violation(
        'the stored universal-link record is JSON-safe',
        `${where}: the record does not parse back`,
      )

    for (const t of this.tracked)
      if (
        t.settled &&
        t.outcome !== 'value' &&
        t.outcome !== undefined &&
        !DOCUMENTED_CODES.has(t.outcome)
      )
        throw new Violation(
          'every call settles with a value or a documented AppError',
          `${t.label}: ${t.outcome}`,
        )
    if (unhandled.length > 0)
      throw new Violation('no unhandled rejection', `${where}: ${describe(unhandled[0])}`)
  }

  /** End of a sequence: the clock passes every named timeout; every call has settled; no secret leaked. */
  async finish() {
    // The clock moves on only until every call has settled (at most SETTLE_MS).
    for (
      let waited = 0;
      waited < SETTLE_MS && this.tracked.some((t) => !t.settled);
      waited += 1_000
    )
      await this.advance(1_000)
    await realTurn()
    this.check('end')
    const open = this.tracked.filter((t) => !t.settled)
    if (open.length > 0)
      throw new Violation(
        'every call settles',
        `still pending after ${SETTLE_MS} ms past every named timeout: ${open.map((t) => t.label).join(', ')}`,
      )
    // Let the redacting inspector (loaded on demand) flush, then look for secrets.
    await vi.advanceTimersByTimeAsync(10)
    await realTurn()
    const secrets = [
      ...this.backend.secrets,
      ...this.metamask.signatures,
      ...this.rabby.signatures,
      ...this.phantom.signatures,
      ...this.signatures,
    ]
    const text = this.events.map(jsonOfEvent).join('\n')
    for (const secret of secrets)
      if (secret.length >= 16 && text.includes(secret))
        throw new Violation('no secret in inspection events', `${secret.slice(0, 12)}… appears`)
  }

  dispose() {
    try {
      this.client.actor.stop()
    } catch {
      // already stopped
    }
    for (const sim of this.relayWallets) sim.close()
    for (const undo of this.#cleanup.splice(0)) undo()
  }
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`
  return describeJsonUnsafe(value) ?? JSON.stringify(value, bigintSafe)
}

/** `FAULTS_PROFILE`'s real milliseconds per call (`performance` is on the fake clock). */
export const profile = new Map<string, number>()
const realMs = () => Number(process.hrtime.bigint()) / 1e6

/** Replays one sequence in a fresh world; throws the first `Violation`. */
export async function runSequence(
  steps: readonly Step[],
  inspect = true,
  overrides: Partial<ClientOptions> = {},
): Promise<void> {
  // An inspector fault needs an inspector to fail.
  const inspected = inspect || steps.some((step) => step.app?.startsWith('inspector'))
  const world = new World(inspected, overrides)
  const t0 = realMs()
  try {
    const perCall = new Map<string, number>()
    for (const [index, step] of steps.entries()) {
      const s0 = realMs()
      await world.step(step, index)
      perCall.set(step.call, (perCall.get(step.call) ?? 0) + realMs() - s0)
    }
    if (process.env.FAULTS_PROFILE)
      for (const [k, v] of perCall) profile.set(k, (profile.get(k) ?? 0) + v)
    const t1 = realMs()
    await world.finish()
    if (process.env.FAULTS_PROFILE) {
      profile.set('(finish)', (profile.get('(finish)') ?? 0) + realMs() - t1)
      for (const t of world.tracked) {
        const key = `= ${t.label.replace(/^#\d+ /, '')} → ${t.outcome}`
        profile.set(key, (profile.get(key) ?? 0) + 1)
      }
    }
    if (process.env.FAULTS_PROFILE === 'verbose')
      console.log(
        `steps ${steps.length} ${Math.round(t1 - t0)}ms finish ${Math.round(realMs() - t1)}ms`,
        world.tracked.map((t) => `${t.label.replace(/^#\d+ /, '')}=${t.outcome}`).join(' '),
      )
  } finally {
    world.dispose()
  }
}
