import { randomBytes } from '@noble/ciphers/utils.js'
import { base58, base64 } from '@scure/base'
import { type Actor, createActor, type SnapshotFrom } from 'xstate'
import * as z from 'zod/mini'
import { createRedactingInspector } from '../../../machines/client/client.redact'
import { phantomLinkMachine } from '../../../machines/phantom-link/phantom-link.machine'
import type { PhantomLinkEvent } from '../../../machines/phantom-link/phantom-link.types'
import type { ErrorData } from '../../../machines/shared/error-data'
import type { InspectionOptions } from '../../../machines/shared/inspect'
import { createSecretRegistry, type SecretRegistry } from '../../../machines/shared/secret-registry'
import type {
  ConnectorEvent,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from '../../connectors/types'
import { SolanaAddressSchema, SolanaSignatureSchema } from '../../connectors/wallet-answers'
import { AppError, type AppErrorCode } from '../../errors/app-error'
import { createLogger } from '../../logging'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { Caip2ChainId } from '../../registry/types'
import type { RecordStore } from '../../storage/record-store'
import { boxBefore, createBoxKeyPair, openJson, sealJson } from '../box'
import {
  PHANTOM_LINK_STATE_FORMAT,
  PHANTOM_LINK_STATE_VERSION,
  type PhantomLinkPersistedState,
} from '../persisted'
import {
  buildPhantomLinkUrl,
  type PhantomAnswer,
  type PhantomLinkMethod,
  phantomCluster,
  phantomErrorCode,
  readPhantomAnswer,
  redirectLinkFor,
} from '../protocol'

const log = /* @__PURE__ */ createLogger('phantom-link')

/** Default `answerMs`: how long a request waits for the wallet's answer. */
export const DEFAULT_PHANTOM_LINK_ANSWER_MS = 300_000

/** Options of `new PhantomLinkConnector(options)`. */
export interface PhantomLinkConnectorOptions extends InspectionOptions {
  /** The registry wallet (`phantom`, `solflare`): the connector's id. */
  walletId: string
  /** The wallet's protocol base, `{baseUrl}{method}` (registry `phantomLink.baseUrl`). */
  baseUrl: string
  /** Default Solana mainnet; sent as Phantom's `cluster`. */
  chainId?: Caip2ChainId
  /** `app_url` (the wallet shows and checks it); default the page's origin. */
  appUrl?: string
  /** Where the wallet sends the user back (`redirect_link`); default the current page. */
  redirectLink?: string
  /** Opens the wallet's link; default `window.location.assign`. */
  openLink?: (url: string) => void
  /** Keeps the flow across the navigation to the wallet and back; without one it cannot resume. */
  store?: RecordStore<PhantomLinkPersistedState>
  /** Named timeout of each request, from when it is sent (default 5 minutes); `TIMEOUT` after. */
  answerMs?: number
  /** Secrets to redact (the `Client` passes its own); default a registry of this connector. */
  secrets?: SecretRegistry
}

/** Why an answer was refused (the flow stays as it was). */
export type PhantomLinkRefusal =
  /** No request is waiting for an answer (nothing stored, or it already ended). */
  | 'no-request'
  /** The answer names another flow than the request in flight. */
  | 'other-flow'
  /** This answer (its nonce) was taken already. */
  | 'replayed'
  /** `data` does not open with this connection's key and the answer's nonce. */
  | 'forged'
  /** `data` opened but is not the method's answer. */
  | 'malformed'

/**
 * What `resume()` found: `none` (nothing stored and no answer), `pending` (a request is still
 * waiting), `connected`, `signed` (a signature request answered), `failed` (the wallet answered an
 * error, or the request timed out), `refused` (an answer the flow does not accept: forged,
 * replayed, for another flow; nothing changed), `discarded` (an unusable stored record, cleared).
 */
export type PhantomLinkResumeResult =
  | { status: 'none' }
  | { status: 'discarded'; reason: string }
  | { status: 'pending'; method: 'connect' | 'signMessage' | 'signAndSendTransaction' }
  | { status: 'connected'; connection: WalletConnection }
  | {
      status: 'signed'
      method: 'signMessage' | 'signAndSendTransaction'
      signature: string
      connection: WalletConnection
    }
  | { status: 'failed'; error: AppError }
  | { status: 'refused'; reason: PhantomLinkRefusal; error: AppError }

type PhantomLinkActor = Actor<typeof phantomLinkMachine>
type PhantomLinkSnapshot = SnapshotFrom<typeof phantomLinkMachine>

// The decrypted answer, checked as every wallet answer is (src/connectors/wallet-answers.ts): the
// account a 32-byte key, a signature 64 bytes, both base58; the session Phantom's base58 token
// (its claims and their signature: a few hundred characters), at most 1,024.
const MAX_SESSION_CHARS = 1_024
const connectAnswer = /* @__PURE__ */ z.object({
  public_key: SolanaAddressSchema,
  session: /* @__PURE__ */ z
    .string()
    .check(
      /* @__PURE__ */ z.maxLength(MAX_SESSION_CHARS),
      /* @__PURE__ */ z.regex(/^[1-9A-HJ-NP-Za-km-z]+$/),
    ),
})
const signatureAnswer = /* @__PURE__ */ z.object({ signature: SolanaSignatureSchema })

function appError(error: ErrorData): AppError {
  return new AppError(error.code as AppErrorCode, error.message)
}

function refusal(reason: PhantomLinkRefusal): PhantomLinkResumeResult {
  const messages: Record<PhantomLinkRefusal, string> = {
    'no-request': 'No request of this page is waiting for a wallet answer.',
    'other-flow': 'The wallet answer belongs to another request.',
    replayed: 'This wallet answer was already taken.',
    forged: 'The wallet answer does not open with this connection’s key.',
    malformed: 'The wallet answer is not what the request asked for.',
  }
  return { status: 'refused', reason, error: new AppError('WALLET_ERROR', messages[reason]) }
}

function defaultOpenLink(url: string): void {
  if (typeof window === 'undefined')
    throw new AppError('WALLET_UNAVAILABLE', 'No browser window to open the wallet link in.')
  window.location.assign(url)
}

/**
 * A Solana wallet over Phantom's deeplink protocol v1 (Phantom at `https://phantom.app/ul/v1/`,
 * Solflare at `https://solflare.com/ul/v1/`): each request opens `{baseUrl}{method}` with an x25519
 * + NaCl box payload, and the wallet sends the user back to `redirect_link` with its encrypted
 * answer. The flow is the `phantomLink` chart; in its resumable states it is saved to `store`, and
 * `resume({ url })` restores it after the navigation and opens the answer. Requests:
 * `solana_signMessage` (`{ message }` → `{ signature, publicKey }`) and
 * `solana_signAndSendTransaction` (`{ transaction }` base64 → `{ signature }`).
 */
export class PhantomLinkConnector implements IWalletConnector {
  readonly id: string
  /** Tells the `Client` (without importing this class) that `resume({ url })` takes wallet answers. */
  readonly kind = 'phantom-link' as const
  readonly #options: PhantomLinkConnectorOptions
  readonly #chainId: Caip2ChainId
  readonly #secrets: SecretRegistry
  readonly #listeners = new Set<(event: ConnectorEvent) => void>()
  #actor: PhantomLinkActor | null = null

  /**
   * @throws `INVALID_CONFIG` when `baseUrl` is not an absolute HTTPS URL ending in `/` (HTTP only on
   * a loopback host).
   */
  constructor(options: PhantomLinkConnectorOptions) {
    let url: URL | null = null
    try {
      url = new URL(options.baseUrl)
    } catch {}
    // HTTPS; plain HTTP only on a loopback host (a local wallet double).
    const loopback =
      url?.protocol === 'http:' && /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname)
    if ((url?.protocol !== 'https:' && !loopback) || !options.baseUrl.endsWith('/'))
      throw new AppError('INVALID_CONFIG', 'phantomLink.baseUrl must be an HTTPS URL ending in /.')
    this.#options = options
    this.id = options.walletId
    this.#chainId = options.chainId ?? SOLANA_MAINNET_CHAIN_ID
    this.#secrets = options.secrets ?? createSecretRegistry()
  }

  /** Deeplinks need nothing installed in the page. */
  isAvailable(): boolean {
    return true
  }

  /** The flow's actor (for a UI), null before `connect()` / `resume()`. */
  getActor(): PhantomLinkActor | null {
    return this.#actor
  }

  getConnection(): WalletConnection | null {
    const context = this.#actor?.getSnapshot().context
    if (!context?.account || context.session === null) return null
    return {
      walletId: this.#options.walletId,
      connectorId: this.id,
      namespace: 'solana',
      chainId: context.chainId as Caip2ChainId,
      accounts: [context.account],
    }
  }

  getAccounts(): string[] {
    return this.getConnection()?.accounts ?? []
  }

  /**
   * Opens the wallet's `connect` link with a new x25519 key pair and waits for its answer (fed by
   * `resume({ url })`); connected already (after `resume()`), the same connection.
   * @throws `USER_REJECTED` (4001), `WALLET_ERROR`, `TIMEOUT` (`answerMs`), `ABORTED` (`cancel()`).
   */
  async connect(): Promise<WalletConnection> {
    const current = this.getConnection()
    if (current && this.#actor?.getSnapshot().matches('connected')) return current
    const actor = this.#ensureActor()
    const keys = createBoxKeyPair()
    this.#secrets.add(keys.secretKey)
    const flow = base58.encode(randomBytes(16))
    actor.send({
      type: 'CONNECT',
      flow,
      deadline: Date.now() + (this.#options.answerMs ?? DEFAULT_PHANTOM_LINK_ANSWER_MS),
      dappPublicKey: keys.publicKey,
      dappSecretKey: keys.secretKey,
    })
    const settled = this.#settle(flow)
    this.#openOrCancel(settled, () =>
      this.#open('connect', {
        app_url: this.#appUrl(),
        dapp_encryption_public_key: keys.publicKey,
        redirect_link: redirectLinkFor(this.#redirectLink(), flow),
        cluster: phantomCluster(this.#chainId),
      }),
    )
    await settled
    return this.getConnection() as WalletConnection
  }

  /** The stored connection (a request may be in flight), without opening the wallet; else null. */
  async reconnect(): Promise<WalletConnection | null> {
    if (!this.#actor) this.#restore()
    return this.getConnection()
  }

  /**
   * `solana_signMessage` (`{ message }`, UTF-8) → `{ signature, publicKey }`;
   * `solana_signAndSendTransaction` (`{ transaction }`, base64 of the serialized transaction) →
   * `{ signature }` (the wallet sends it). Opens the wallet and waits for its answer.
   * @throws `NOT_CONNECTED` before a connection (or when the wallet says the session is gone);
   * `INVALID_CONFIG` for params of the wrong shape; `UNSUPPORTED_METHOD` for other methods
   * (nothing is opened); `USER_REJECTED`; `WALLET_ERROR` (wallet errors); `TIMEOUT`; `ABORTED`.
   */
  async request<T>(args: RequestArgs): Promise<T> {
    const actor = this.#actor
    const context = actor?.getSnapshot().context
    if (!actor?.getSnapshot().matches('connected') || !context?.session || !context.account) {
      throw new AppError('NOT_CONNECTED', 'Connect the wallet before asking it to sign.')
    }
    const params = (args.params ?? {}) as Record<string, unknown>
    let method: 'signMessage' | 'signAndSendTransaction'
    let payload: Record<string, string>
    if (args.method === 'solana_signMessage' && typeof params.message === 'string') {
      method = 'signMessage'
      const message = base58.encode(new TextEncoder().encode(params.message))
      payload = { message, session: context.session, display: 'utf8' }
    } else if (
      args.method === 'solana_signAndSendTransaction' &&
      typeof params.transaction === 'string'
    ) {
      method = 'signAndSendTransaction'
      let bytes: Uint8Array
      try {
        bytes = base64.decode(params.transaction)
      } catch {
        throw new AppError('INVALID_CONFIG', 'params.transaction must be base64.')
      }
      payload = { transaction: base58.encode(bytes), session: context.session }
    } else if (
      args.method === 'solana_signMessage' ||
      args.method === 'solana_signAndSendTransaction'
    ) {
      throw new AppError('INVALID_CONFIG', `${args.method} needs its params as a string.`)
    } else {
      throw new AppError(
        'UNSUPPORTED_METHOD',
        `${args.method} is not available over Phantom's deeplinks.`,
      )
    }
    const flow = base58.encode(randomBytes(16))
    actor.send({
      type: 'SIGN',
      flow,
      method,
      deadline: Date.now() + (this.#options.answerMs ?? DEFAULT_PHANTOM_LINK_ANSWER_MS),
    })
    const settled = this.#settle(flow)
    this.#openOrCancel(settled, () =>
      this.#open(method, {
        dapp_encryption_public_key: context.dappPublicKey ?? '',
        redirect_link: redirectLinkFor(this.#redirectLink(), flow),
        ...this.#seal(payload),
      }),
    )
    const signature = await settled
    return (
      method === 'signMessage' ? { signature, publicKey: context.account } : { signature }
    ) as T
  }

  /** Ends the request in flight with `ABORTED` (the connection stays). */
  cancel(): void {
    this.#actor?.send({ type: 'CANCEL' })
  }

  /**
   * Opens the wallet's `disconnect` link (best effort: a failure to open is logged) and forgets
   * the connection and the stored flow. Never throws.
   */
  async disconnect(): Promise<void> {
    const context = this.#actor?.getSnapshot().context
    if (context?.session && context.dappPublicKey) {
      try {
        this.#open('disconnect', {
          dapp_encryption_public_key: context.dappPublicKey,
          redirect_link: redirectLinkFor(this.#redirectLink(), 'disconnect'),
          ...this.#seal({ session: context.session }),
        })
      } catch (error) {
        log.warn('opening the disconnect link failed', error)
      }
    }
    this.#actor?.send({ type: 'DISCONNECT' })
    this.#options.store?.clear()
    this.#emit({ type: 'disconnect' })
  }

  subscribe(listener: (event: ConnectorEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * After the wallet sent the user back: restores the stored flow (when this connector is not
   * running one) and opens the answer on `url` (default `location.href` in a page). A refused
   * answer changes nothing: the request still waits. Never throws.
   */
  async resume(options: { url?: string } = {}): Promise<PhantomLinkResumeResult> {
    if (!this.#actor) {
      const restored = this.#restore()
      if (restored) return restored
    }
    const href =
      options.url ?? (typeof location === 'undefined' ? undefined : String(location.href))
    const answer = href === undefined ? null : readPhantomAnswer(href)
    const actor = this.#actor
    if (answer === null || answer.kind === 'empty') {
      const snapshot = actor?.getSnapshot()
      const request = snapshot?.context.request
      if (request) return { status: 'pending', method: request.method }
      const connection = this.getConnection()
      if (connection && snapshot?.matches('connected')) return { status: 'connected', connection }
      return { status: 'none' }
    }
    if (!actor) return refusal('no-request')
    return this.#take(actor, answer)
  }

  /** Checks, opens and hands one answer to the chart; how the request ended. */
  #take(actor: PhantomLinkActor, answer: Exclude<PhantomAnswer, { kind: 'empty' }>) {
    const context = actor.getSnapshot().context
    const request = context.request
    if (answer.kind === 'data' && context.seenNonces.includes(answer.nonce))
      return refusal('replayed')
    if (!request) return refusal('no-request')
    if (answer.flow !== request.flow) return refusal('other-flow')
    const flow = request.flow
    let event: PhantomLinkEvent
    if (answer.kind === 'error') {
      event = {
        type: 'ANSWER.FAILED',
        flow,
        nonce: null,
        error: {
          code: phantomErrorCode(answer.errorCode),
          message: `The wallet answered ${answer.errorCode}: ${answer.errorMessage}`.slice(0, 300),
        },
      }
    } else {
      const walletKey =
        request.method === 'connect' ? answer.walletEncryptionKey : context.walletEncryptionKey
      if (
        walletKey === null ||
        (request.method !== 'connect' &&
          answer.walletEncryptionKey !== null &&
          answer.walletEncryptionKey !== walletKey)
      )
        return refusal('forged')
      const opened = this.#open_(walletKey, context.dappSecretKey ?? '', answer.nonce, answer.data)
      if (opened === null) return refusal('forged')
      if (request.method === 'connect') {
        const parsed = connectAnswer.safeParse(opened)
        if (!parsed.success) return refusal('malformed')
        this.#secrets.add(parsed.data.session)
        event = {
          type: 'ANSWER.CONNECTED',
          flow,
          nonce: answer.nonce,
          walletEncryptionKey: walletKey,
          session: parsed.data.session,
          account: parsed.data.public_key,
        }
      } else {
        const parsed = signatureAnswer.safeParse(opened)
        if (!parsed.success) return refusal('malformed')
        this.#secrets.add(parsed.data.signature)
        event = {
          type: 'ANSWER.SIGNED',
          flow,
          nonce: answer.nonce,
          signature: parsed.data.signature,
        }
      }
    }
    actor.send(event)
    const last = actor.getSnapshot().context.last
    if (last?.flow !== flow) return refusal('no-request')
    if (last.error) return { status: 'failed', error: appError(last.error) } as const
    const connection = this.getConnection() as WalletConnection
    if (last.method === 'connect') return { status: 'connected', connection } as const
    return {
      status: 'signed',
      method: last.method,
      signature: last.signature ?? '',
      connection,
    } as const
  }

  /** Opens `data` with the box key of `walletKey` and the dApp's secret; null when it does not. */
  #open_(walletKey: string, secretKey: string, nonce: string, data: string): unknown {
    try {
      return openJson(boxBefore(base58.decode(walletKey), base58.decode(secretKey)), nonce, data)
    } catch {
      return null
    }
  }

  #seal(payload: Record<string, string>): { nonce: string; payload: string } {
    const context = this.#actor?.getSnapshot().context
    const key = boxBefore(
      base58.decode(context?.walletEncryptionKey ?? ''),
      base58.decode(context?.dappSecretKey ?? ''),
    )
    const sealed = sealJson(key, payload)
    return { nonce: sealed.nonce, payload: sealed.data }
  }

  /** Runs `open`; when it throws, the request ends (`ABORTED`) and `settled` rejects with its error. */
  #openOrCancel(settled: Promise<string>, open: () => void): void {
    try {
      open()
    } catch (error) {
      settled.catch(() => {})
      this.#actor?.send({ type: 'CANCEL' })
      if (error instanceof AppError) throw error
      throw new AppError('WALLET_UNAVAILABLE', 'Opening the wallet link failed.', { cause: error })
    }
  }

  #open(method: PhantomLinkMethod, params: Record<string, string>): void {
    const url = buildPhantomLinkUrl(this.#options.baseUrl, method, params)
    log.debug(`opening ${this.#options.walletId} to ${method}`)
    ;(this.#options.openLink ?? defaultOpenLink)(url)
  }

  /** Restores the stored flow; a result when there is nothing to continue (none, discarded). */
  #restore(): PhantomLinkResumeResult | null {
    const store = this.#options.store
    const stored = store?.load() ?? null
    if (stored === null) return null
    if (stored.snapshot.context.walletId !== this.#options.walletId) return null
    const context = stored.snapshot.context
    for (const secret of [context.dappSecretKey, context.session])
      if (secret) this.#secrets.add(secret)
    const actor = this.#start(stored.snapshot)
    if (actor.getSnapshot().status !== 'active') {
      this.#teardown()
      store?.clear()
      log.warn('discarded the stored Phantom-link flow: it did not restore')
      return { status: 'discarded', reason: 'the stored flow did not restore' }
    }
    return null
  }

  #ensureActor(): PhantomLinkActor {
    if (!this.#actor) this.#restore()
    return this.#actor ?? this.#start(undefined)
  }

  #start(snapshot: unknown): PhantomLinkActor {
    const inspect = this.#options.inspect
    const actor = createActor(phantomLinkMachine, {
      input: { walletId: this.#options.walletId, chainId: this.#chainId },
      ...(snapshot === undefined ? {} : { snapshot: snapshot as never }),
      ...(inspect === undefined
        ? {}
        : {
            inspect:
              this.#options.sanitizeInspection === false
                ? inspect
                : createRedactingInspector(inspect, this.#secrets),
          }),
    })
    const store = this.#options.store
    actor.subscribe({
      next: (s) => {
        if (!store) return
        if (s.hasTag('resumable')) store.save(this.#record(actor))
        else store.clear()
      },
      error: () => {},
    })
    this.#actor = actor
    actor.start()
    return actor
  }

  #record(actor: PhantomLinkActor): PhantomLinkPersistedState {
    return {
      format: PHANTOM_LINK_STATE_FORMAT,
      formatVersion: PHANTOM_LINK_STATE_VERSION,
      savedAt: Date.now(),
      snapshot: actor.getPersistedSnapshot() as unknown as PhantomLinkPersistedState['snapshot'],
    }
  }

  /** The base58 signature once request `flow` ended; its `AppError` when it failed. */
  #settle(flow: string): Promise<string> {
    const actor = this.#actor as PhantomLinkActor
    return new Promise((resolve, reject) => {
      const check = (s: PhantomLinkSnapshot): boolean => {
        const last = s.context.last
        if (s.status !== 'active') {
          reject(new AppError('ABORTED', 'The wallet flow was stopped.'))
          return true
        }
        if (last?.flow !== flow) {
          if (s.context.request?.flow === flow) return false
          reject(new AppError('ABORTED', 'The request was replaced.'))
          return true
        }
        if (last.error) {
          if (last.error.code === 'NOT_CONNECTED') this.#emit({ type: 'disconnect' })
          reject(appError(last.error))
        } else resolve(last.signature ?? '')
        return true
      }
      if (check(actor.getSnapshot())) return
      const subscription = actor.subscribe({
        next: (s) => {
          if (check(s)) subscription.unsubscribe()
        },
        error: () => reject(new AppError('WALLET_ERROR', 'The wallet flow stopped unexpectedly.')),
        complete: () => reject(new AppError('ABORTED', 'The wallet flow was stopped.')),
      })
    })
  }

  #appUrl(): string {
    if (this.#options.appUrl !== undefined) return this.#options.appUrl
    return typeof location === 'undefined' ? this.#redirectLink() : String(location.origin)
  }

  #redirectLink(): string {
    if (this.#options.redirectLink !== undefined) return this.#options.redirectLink
    if (typeof location === 'undefined')
      throw new AppError('INVALID_CONFIG', 'Outside a page, pass redirectLink.')
    return String(location.href)
  }

  #emit(event: ConnectorEvent) {
    for (const listener of this.#listeners) listener(event)
  }

  #teardown() {
    this.#actor?.stop()
    this.#actor = null
  }
}
