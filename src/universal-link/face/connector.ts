import { type Actor, createActor, fromPromise, type SnapshotFrom } from 'xstate'
import {
  checkRestorable,
  persistWhileResumable,
  type SnapshotMigrations,
} from '../../../machines/client/client.persistence'
import { createRedactingInspector } from '../../../machines/client/client.redact'
import {
  UNIVERSAL_LINK_RECORD_SCHEMA,
  universalLinkRecordProblem,
} from '../../../machines/client/client.restore-values'
import { createMemoryTokenVault } from '../../../machines/session-polling/session-polling.actors'
import type { InspectionOptions } from '../../../machines/shared/inspect'
import { dropRetiredOutcome } from '../../../machines/shared/retired-outcome'
import { createSecretRegistry } from '../../../machines/shared/secret-registry'
import { createUniversalLinkActors } from '../../../machines/universal-link/universal-link.actors'
import { universalLinkMachine } from '../../../machines/universal-link/universal-link.machine'
import type {
  OpenWalletInput,
  UniversalLinkOutput,
} from '../../../machines/universal-link/universal-link.types'
import type {
  ConnectorEvent,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from '../../connectors/types'
import { AppError } from '../../errors/app-error'
import { invalidArgument, isObjectLike, requireObject } from '../../errors/arguments'
import { createLogger } from '../../logging'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { Caip2ChainId } from '../../registry/types'
import type { GenericWalletSessionClient } from '../../session/client'
import { buildUniversalLinkUrl } from '../build-universal-link-url'
import { SOLANA_SIGN_TRANSACTION_METHOD } from '../params'
import type { UniversalLinkPersistedState } from '../persisted-state'
import type { UniversalLinkStore } from '../store'

const log = /* @__PURE__ */ createLogger('universal-link')

/** `inspect`: an XState inspector (e.g. `@statelyai/inspect`); it sees no session token or signature. */
export interface UniversalLinkConnectorOptions extends InspectionOptions {
  walletId: string
  /** The wallet's universal link (absolute HTTPS), e.g. `https://phantom.app/ul/`. */
  universalLink: string
  session: GenericWalletSessionClient
  chainId?: Caip2ChainId
  /** Opens the wallet; default `window.location.assign`. */
  openLink?: (url: string) => void
  /** Where the wallet sends the user back; default the current page. */
  returnUrl?: string
  dappName?: string
  /** Keeps the flow across the page reload; without one the flow cannot be resumed. */
  store?: UniversalLinkStore
  /** Poll cadence for the session (default 1.5–2 s with jitter). */
  pollIntervalMs?: readonly [number, number] | number
  /** Migrations of stored flows written under older record schemas, by that schema (`universal-link@1`). */
  migrations?: SnapshotMigrations
}

/**
 * What `resume()` / `rehydrate()` found and how the resumed flow ended up, discriminated by
 * `status`: `none` (nothing stored), `discarded` (unusable record, cleared; `reason`), `connected`
 * (with the signature when a signature was pending), or the flow's failure with its `error`.
 */
export type UniversalLinkResumeResult =
  | { status: 'none' }
  | { status: 'discarded'; reason: string }
  | {
      status: 'connected'
      connection: WalletConnection | null
      signature: string | null
      txSignature: string | null
    }
  | { status: UniversalLinkOutput['status']; error: AppError }

type UniversalLinkActor = Actor<typeof universalLinkMachine>
type UniversalLinkSnapshot = SnapshotFrom<typeof universalLinkMachine>

const OUTCOME_ERRORS = {
  rejected: 'USER_REJECTED',
  expired: 'SESSION_EXPIRED',
  failed: 'SESSION_FAILED',
  cancelled: 'ABORTED',
  disconnected: 'NOT_CONNECTED',
} as const

function defaultOpenLink(url: string): void {
  if (typeof window === 'undefined')
    throw new AppError('WALLET_UNAVAILABLE', 'No browser window to open the wallet link in.')
  window.location.assign(url)
}

/**
 * Mobile wallets over a universal link, without a `Client`: the wallet app opens with the `sc*`
 * parameters, reports to the backend's callbacks, and sends the user back — usually to a reloaded
 * page. The flow is the `universal-link` statechart (its poller a child machine); in its resumable
 * states the deep persisted snapshot is saved to `store` with the session token beside it, and
 * `resume()` restores it after the reload. The store is cleared when the flow ends. The `Client`
 * runs the same machine inside its root actor instead.
 */
export class UniversalLinkConnector implements IWalletConnector {
  readonly id: string
  readonly #options: UniversalLinkConnectorOptions
  readonly #chainId: Caip2ChainId
  readonly #listeners = new Set<(event: ConnectorEvent) => void>()
  readonly #vault = createMemoryTokenVault()
  readonly #secrets = createSecretRegistry()
  readonly #machine: typeof universalLinkMachine
  #actor: UniversalLinkActor | null = null
  #stopPersisting: (() => void) | null = null

  /**
   * @throws `INVALID_CONFIG` when `universalLink` is not an absolute HTTPS URL, or an option is not
   * of its type (`options` an object, `walletId` a non-empty string, `session` a session client,
   * `chainId` a string, `openLink` a function, `store` an object), naming it.
   */
  constructor(options: UniversalLinkConnectorOptions) {
    checkConnectorOptions(options)
    this.#options = options
    this.id = options.walletId
    this.#chainId = options.chainId ?? SOLANA_MAINNET_CHAIN_ID
    // Validate the link now, not when the user taps "connect".
    buildUniversalLinkUrl(options.universalLink, {
      sessionId: 'validation',
      nonce: 'validation',
      chainId: this.#chainId,
      callbackUrl: options.session.baseUrl,
      method: 'connect',
    })
    this.#machine = universalLinkMachine.provide({
      actors: {
        ...createUniversalLinkActors(options.session, {
          intent: this.#chainId.startsWith('solana:') ? 'transaction' : 'sign',
          vault: this.#vault,
          onSecret: (value) => this.#secrets.add(value),
        }),
        openWallet: fromPromise<void, OpenWalletInput>(async ({ input }) => this.#open(input)),
      },
    })
  }

  /** Universal links need nothing installed in the page. */
  isAvailable(): boolean {
    return true
  }

  /** The flow's actor, for UI subscription; null before `connect()` / `resume()`. */
  getActor(): UniversalLinkActor | null {
    return this.#actor
  }

  getConnection(): WalletConnection | null {
    const snapshot = this.#actor?.getSnapshot()
    // The flow keeps its connection (connector id = wallet id); without an address there is none.
    const connection = snapshot?.context.connection
    if (!connection?.accounts.length || snapshot?.status !== 'active') return null
    return {
      ...connection,
      walletId: this.#options.walletId,
      chainId: connection.chainId as Caip2ChainId,
    }
  }

  getAccounts(): string[] {
    return this.getConnection()?.accounts ?? []
  }

  /**
   * Creates a backend session, opens the wallet and waits for it to connect (at most until the
   * session expires).
   * @throws `USER_REJECTED`, `SESSION_EXPIRED`, `SESSION_FAILED`, `ABORTED`, or `BACKEND_ERROR`.
   */
  async connect(): Promise<WalletConnection> {
    // Connected already (e.g. after resume()): the same connection, not a second trip to the wallet.
    const current = this.#actor?.getSnapshot().matches('connected') ? this.getConnection() : null
    if (current) return current
    this.#teardown()
    this.#options.store?.clear()
    const actor = this.#start(undefined)
    await this.#settle(actor, (s) => s.matches('connected'))
    return this.getConnection() as WalletConnection
  }

  /**
   * `solana_signMessage`: the wallet signs the session envelope (the message the backend verifies),
   * returning `{ signature, publicKey }`. `solana_signTransaction` (params `{ transaction }`,
   * base64 or base64url): returns `{ signature }`, the transaction signature the wallet reported.
   * The flow returns to `connected`, so another request can follow.
   * @throws `UNSUPPORTED_METHOD` for any other method (checked first: nothing is sent, the flow
   * stays connected); `NOT_CONNECTED` before a connection; `INVALID_CONFIG` for
   * `solana_signTransaction` without `params.transaction`.
   */
  async request<T>(args: RequestArgs): Promise<T> {
    const method = isObjectLike(args) ? args.method : undefined
    if (method !== 'solana_signMessage' && method !== SOLANA_SIGN_TRANSACTION_METHOD) {
      throw new AppError(
        'UNSUPPORTED_METHOD',
        `${typeof method === 'string' ? method : 'That method'} is not available over a universal link (only solana_signMessage and ${SOLANA_SIGN_TRANSACTION_METHOD}).`,
      )
    }
    const actor = this.#actor
    if (!actor?.getSnapshot().matches('connected')) {
      throw new AppError('NOT_CONNECTED', 'Connect the wallet before asking it to sign.')
    }
    const before = actor.getSnapshot().context.signatures
    if (method === 'solana_signMessage') {
      actor.send({ type: 'SIGN_MESSAGE' })
    } else {
      const transaction = (args.params as { transaction?: unknown } | undefined)?.transaction
      if (typeof transaction !== 'string' || transaction.length === 0) {
        throw new AppError(
          'INVALID_CONFIG',
          'solana_signTransaction needs params.transaction (base64 or base64url).',
        )
      }
      // Solana tools emit standard base64; the link carries base64url.
      const payload = transaction.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
      actor.send({ type: 'SIGN_TRANSACTION', payload })
    }
    const context = await this.#settle(
      actor,
      (s) => s.matches('connected') && s.context.signatures > before,
    )
    return (
      context.txSignature !== null
        ? { signature: context.txSignature }
        : { signature: context.signature, publicKey: context.walletAddress }
    ) as T
  }

  /** Ends the flow (a pending request rejects with `ABORTED`) and clears the store. */
  async disconnect(): Promise<void> {
    const actor = this.#actor
    actor?.send({ type: actor.getSnapshot().matches('connected') ? 'DISCONNECT' : 'CANCEL' })
    this.#teardown()
    this.#options.store?.clear()
  }

  subscribe(listener: (event: ConnectorEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Loads the stored flow (after the wallet sent the user back) and continues it. */
  async resume(): Promise<UniversalLinkResumeResult> {
    const stored = this.#options.store?.load() ?? null
    if (stored === null) return { status: 'none' }
    return this.rehydrate(stored)
  }

  /**
   * Continues a flow from a persisted state. An unusable record (another record schema without a
   * migration, expired, corrupt, not resumable) is cleared and reported as `discarded` with the
   * reason; nothing else happens. Never throws.
   */
  async rehydrate(state: UniversalLinkPersistedState): Promise<UniversalLinkResumeResult> {
    const check = checkRestorable(dropRetiredOutcome(state), {
      machine: this.#machine,
      fingerprint: UNIVERSAL_LINK_RECORD_SCHEMA,
      values: universalLinkRecordProblem,
      ...(this.#options.migrations ? { migrations: this.#options.migrations } : {}),
    })
    if (!check.ok) {
      log.warn(`discarded the stored universal-link flow: ${check.reason}`)
      this.#options.store?.clear()
      return { status: 'discarded', reason: check.reason }
    }
    for (const [sessionId, token] of Object.entries(check.tokens)) {
      this.#vault.set(sessionId, token)
      this.#secrets.add(token)
    }
    this.#teardown()
    const actor = this.#start(check.snapshot)
    actor.getSnapshot().children.poll?.send({ type: 'POLL_NOW' })
    try {
      if (actor.getSnapshot().matches('awaitingSignature')) {
        const before = actor.getSnapshot().context.signatures
        const context = await this.#settle(
          actor,
          (s) => s.matches('connected') && s.context.signatures > before,
        )
        return {
          status: 'connected',
          connection: this.getConnection(),
          signature: context.signature,
          txSignature: context.txSignature,
        }
      }
      await this.#settle(actor, (s) => s.matches('connected'))
      const connection = this.getConnection()
      return { status: 'connected', connection, signature: null, txSignature: null }
    } catch (error) {
      return { status: actor.getSnapshot().output?.status ?? 'failed', error: error as AppError }
    }
  }

  /** Opens the wallet with its link for what the flow asks (the chart goes on waiting if it fails). */
  #open(input: OpenWalletInput): void {
    const url = buildUniversalLinkUrl(this.#options.universalLink, {
      sessionId: input.session.sessionId,
      nonce: input.session.nonce,
      chainId: input.chainId,
      callbackUrl: this.#options.session.baseUrl,
      method: input.method,
      ...(input.payload === null ? {} : { payload: input.payload }),
      ...(this.#returnUrl() === undefined ? {} : { returnUrl: this.#returnUrl() }),
      ...(this.#options.dappName === undefined ? {} : { dappName: this.#options.dappName }),
    })
    log.debug(`opening ${this.#options.walletId} to ${input.method}`)
    try {
      ;(this.#options.openLink ?? defaultOpenLink)(url)
    } catch (error) {
      log.warn('opening the wallet link failed', error)
    }
  }

  #start(snapshot: unknown): UniversalLinkActor {
    const poll = this.#options.pollIntervalMs
    const actor = createActor(this.#machine, {
      input: {
        walletId: this.#options.walletId,
        chainId: this.#chainId,
        ...(poll === undefined ? {} : { pollIntervalMs: poll }),
      },
      ...(snapshot === undefined ? {} : { snapshot: snapshot as never }),
      ...(this.#options.inspect === undefined
        ? {}
        : {
            inspect:
              this.#options.sanitizeInspection === false
                ? this.#options.inspect
                : createRedactingInspector(this.#options.inspect, this.#secrets),
          }),
    })
    if (this.#options.store) {
      const sessionOf = () => actor.getSnapshot().context.session
      this.#stopPersisting = persistWhileResumable(actor, this.#options.store, {
        fingerprint: UNIVERSAL_LINK_RECORD_SCHEMA,
        child: 'poll',
        expiresAt: () => sessionOf()?.expiresAt ?? 0,
        tokens: () => {
          const id = sessionOf()?.sessionId
          const token = id ? this.#vault.get(id) : undefined
          return id && token ? { [id]: token } : {}
        },
      })
    }
    actor.subscribe({
      next: (s) => {
        if (s.status === 'done' && s.output?.status === 'disconnected')
          this.#emit({ type: 'disconnect' })
      },
      error: () => {},
    })
    this.#actor = actor
    actor.start()
    return actor
  }

  /**
   * Waits for `reached` or the end of the flow; a final state becomes its `AppError`. Bounded: the
   * poller ends at the session's expiry at the latest, which ends the flow.
   */
  #settle(
    actor: UniversalLinkActor,
    reached: (s: UniversalLinkSnapshot) => boolean,
  ): Promise<UniversalLinkSnapshot['context']> {
    return new Promise((resolve, reject) => {
      const check = (s: UniversalLinkSnapshot): boolean => {
        if (s.status === 'active') {
          if (!reached(s)) return false
          resolve(s.context)
          return true
        }
        const output = s.output
        const code = output ? OUTCOME_ERRORS[output.status] : 'SESSION_FAILED'
        reject(
          new AppError(
            output?.error?.code ?? code,
            output?.error?.message ?? `The wallet flow ended: ${output?.status ?? 'stopped'}.`,
          ),
        )
        return true
      }
      if (check(actor.getSnapshot())) return
      const subscription = actor.subscribe({
        next: (s) => {
          if (check(s)) subscription.unsubscribe()
        },
        error: () =>
          reject(new AppError('SESSION_FAILED', 'The wallet flow stopped unexpectedly.')),
        complete: () => {
          if (actor.getSnapshot().status === 'stopped')
            reject(new AppError('ABORTED', 'The wallet flow was stopped.'))
          else check(actor.getSnapshot())
        },
      })
    })
  }

  #returnUrl(): string | undefined {
    if (this.#options.returnUrl !== undefined) return this.#options.returnUrl
    return typeof window === 'undefined' ? undefined : window.location.href
  }

  #emit(event: ConnectorEvent) {
    for (const listener of this.#listeners) listener(event)
  }

  #teardown() {
    this.#stopPersisting?.()
    this.#stopPersisting = null
    this.#actor?.stop()
    this.#actor = null
  }
}

/** @throws AppError `INVALID_CONFIG` naming the first option that is not of its documented type. */
function checkConnectorOptions(options: UniversalLinkConnectorOptions): void {
  requireObject(options, 'options')
  if (typeof options.walletId !== 'string' || options.walletId === '') {
    throw invalidArgument('options.walletId', 'must be a non-empty string')
  }
  if (!isObjectLike(options.session)) {
    throw invalidArgument('options.session', 'must be a GenericWalletSessionClient')
  }
  if (options.chainId !== undefined && typeof options.chainId !== 'string') {
    throw invalidArgument('options.chainId', 'must be a CAIP-2 string')
  }
  if (options.openLink !== undefined && typeof options.openLink !== 'function') {
    throw invalidArgument('options.openLink', 'must be a function')
  }
  if (options.store !== undefined && !isObjectLike(options.store)) {
    throw invalidArgument('options.store', 'must be a UniversalLinkStore')
  }
}
