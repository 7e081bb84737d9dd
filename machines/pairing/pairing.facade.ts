import { bytesToHex, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { type Actor, createActor, type SnapshotFrom, waitFor } from 'xstate'
import {
  type RelaySessionRequester,
  signTypedDataOverRelay,
} from '../../src/eip3009/sign-over-relay'
import { AppError } from '../../src/errors/app-error'
import type { FetchLike } from '../../src/http/client'
import { createRelayClient, type RelayClientOptions } from '../../src/relay/client/relay-client'
import { createRelayTokenSource, relayUrlForBaseUrl } from '../../src/relay/client/token-source'
import type { WebSocketConstructor } from '../../src/relay/client/websocket'
import { createPairing } from '../../src/relay/create-pairing'
import { generateKeyPair } from '../../src/relay/crypto/session-key'
import { createMemoryKeyring } from '../../src/relay/peer/keyring'
import { createRelayPeer } from '../../src/relay/peer/relay-peer'
import {
  CaipNamespacesSchema,
  type PeerMetadata,
  PeerMetadataSchema,
  SessionRequestParamsSchema,
} from '../../src/relay/protocol/schemas'
import type { CaipNamespaces, RelayTokenGrant, SettledNamespaces } from '../../src/relay/types'
import { RELAY_TTL_SECONDS } from '../../src/wire/relay'
import { toAppError } from '../shared/error-data'
import { type InspectionOptions, inspectorOptions } from '../shared/inspect'
import { createPairingActors, type OutboxEntry, type PairingEnvironment } from './pairing.actors'
import { pairingMachine } from './pairing.machine'
import {
  checkRestorablePairing,
  type PairingStore,
  persistWhilePaired,
} from './pairing.persistence'
import type { PairedSessionData, PairingInput } from './pairing.types'
import { createMemoryPairingVault, type PairingSecrets, type PairingVault } from './pairing.vault'

export type PairingActor = Actor<typeof pairingMachine>
export type PairingSnapshot = SnapshotFrom<typeof pairingMachine>

export interface PairingConnectionOptions extends InspectionOptions {
  /** The backend: the relay URL defaults to its relay route, the token to its token route. */
  baseUrl?: string
  /** The public app key (for the token route). */
  appKey?: string
  /** `ws(s)://…/api/v1/connect/relay`; default from `baseUrl`. */
  relayUrl?: string
  /** A token source instead of `baseUrl` + `appKey`. */
  getToken?: () => Promise<RelayTokenGrant>
  /** Default `globalThis.WebSocket`; in Node pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructor
  fetchImpl?: FetchLike
  relay?: Pick<RelayClientOptions, 'backoff' | 'keepaliveMs' | 'requestTimeoutMs'>
  /** Keeps the settled session across reloads (7 days); `createBrowserPairingStore()` in a page. */
  store?: PairingStore
  /** Where the keys live; default a private in-memory vault. */
  vault?: PairingVault
  /** Relay messages that were dropped (tampered, wrong key, replayed), as `RELAY_ERROR`s. */
  onDropped?: (error: AppError) => void
  now?: () => number
  random?: () => number
}

export interface PairingOptions extends PairingConnectionOptions {
  requiredNamespaces: CaipNamespaces
  /** The dApp as the wallet shows it. */
  metadata: PeerMetadata
  /** How long the wallet has to answer. Default 300 s. */
  proposalTtlSeconds?: number
}

/** A pairing in progress or settled: the URI at once, the approval as a promise, then requests. */
export interface PairingFlow extends RelaySessionRequester {
  /** The pairing URI to show (QR code or deep link); `null` for a restored session. Secret-bearing. */
  readonly uri: string | null
  readonly actor: PairingActor
  /** Resolves once paired; rejects with `USER_REJECTED`, `SESSION_EXPIRED`, `ABORTED`, `RELAY_ERROR`… */
  readonly approval: Promise<PairedSessionData>
  /** The settled session (public facts), or `null`. */
  readonly session: PairedSessionData | null
  /** `personal_sign` of a UTF-8 message; resolves with the 65-byte signature. */
  signMessage(message: string, options?: { address?: string; chainId?: string }): Promise<string>
  /** `eth_signTypedData_v4`; bigints in the typed data travel as decimal strings. */
  signTypedData(typedData: object, options?: { address?: string }): Promise<string>
  /** `solana_signMessage`; resolves with the base58 signature. */
  signSolanaMessage(
    message: string | Uint8Array,
    options?: { pubkey?: string; chainId?: string },
  ): Promise<string>
  /** Pings the wallet; rejects when it did not answer. */
  ping(): Promise<void>
  /** Ends the session (tells the wallet) and resolves when the machine is done. */
  disconnect(): Promise<void>
  /** Stops the actor and the relay; a persisted session stays in the store. */
  stop(): void
}

const PAIRED = { active: { flow: 'paired' } } as const
const PAIRED_IDLE = { active: { flow: { paired: 'idle' } } } as const

function resolveConnection(
  options: PairingConnectionOptions & { onSecret?: (value: string) => void },
) {
  const relayUrl =
    options.relayUrl ??
    (options.baseUrl === undefined ? undefined : relayUrlForBaseUrl(options.baseUrl))
  if (relayUrl === undefined) throw new AppError('INVALID_CONFIG', 'Pass relayUrl or baseUrl.')
  let getToken = options.getToken
  if (getToken === undefined) {
    if (options.baseUrl === undefined || options.appKey === undefined) {
      throw new AppError('INVALID_CONFIG', 'Pass getToken, or baseUrl and appKey.')
    }
    getToken = createRelayTokenSource({
      baseUrl: options.baseUrl,
      appKey: options.appKey,
      ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    })
  }
  const now = options.now ?? Date.now
  const source = getToken
  const { onSecret } = options
  const relay = createRelayClient({
    relayUrl,
    // The relay token rides in the WebSocket URL: the Client's inspector redacts it by value.
    getToken: onSecret
      ? () =>
          source().then((grant) => {
            onSecret(grant.token)
            return grant
          })
      : source,
    ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
    ...options.relay,
    now,
    ...(options.random ? { random: options.random } : {}),
  })
  const peer = createRelayPeer({
    relay,
    keyring: createMemoryKeyring(),
    now,
    ...(options.random ? { random: options.random } : {}),
  })
  if (options.onDropped) {
    const listener = options.onDropped
    peer.onError((error) => listener(error))
  }
  return { relayUrl, relay, peer, now }
}

function createOutbox() {
  const entries = new Map<string, OutboxEntry>()
  let next = 1
  return {
    add(entry: OutboxEntry): string {
      const id = `r${next++}`
      entries.set(id, entry)
      return id
    },
    take(id: string) {
      const entry = entries.get(id)
      entries.delete(id)
      return entry
    },
    rejectAll(error: AppError) {
      for (const [id, entry] of entries) {
        entries.delete(id)
        entry.reject(error)
      }
    },
  }
}

/** Collects the strings of a wallet's answer (a signature, `{ signature, publicKey }`, …). */
function answerStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) answerStrings(item, out)
  return out
}

/** An outbox that reports every string of a wallet's answer (a signature) before it settles. */
function reportingOutbox(onSecret: (value: string) => void): ReturnType<typeof createOutbox> {
  const outbox = createOutbox()
  return {
    ...outbox,
    add: (entry) =>
      outbox.add({
        ...entry,
        resolve(result) {
          for (const value of answerStrings(result)) onSecret(value)
          entry.resolve(result)
        },
      }),
  }
}

const NAMESPACE_OF_METHOD = (method: string) => (method.startsWith('solana_') ? 'solana' : 'eip155')

function firstChain(namespaces: SettledNamespaces, namespace: string): string | undefined {
  const entry = namespaces[namespace]
  return entry?.chains?.[0] ?? entry?.accounts[0]?.split(':').slice(0, 2).join(':')
}

function firstAccount(namespaces: SettledNamespaces, chainId: string): string | undefined {
  const prefix = `${chainId}:`
  const namespace = namespaces[chainId.split(':')[0] ?? '']
  return namespace?.accounts.find((a) => a.startsWith(prefix))?.slice(prefix.length)
}

/** How a flow is driven when its machine is a child of the `Client`'s root (see `createClientPairing`). */
export interface FlowHooks {
  /** Sends request `requestId` through the root; settles with the root's flow (rejects on its error). */
  submit(requestId: string, method: string): Promise<unknown>
  /** The root's pairing flow, settled with the session. */
  approval: Promise<PairedSessionData>
  disconnect(): Promise<void>
  stop(): void
}

function buildFlow(
  actor: PairingActor,
  env: PairingEnvironment & { outbox: ReturnType<typeof createOutbox> },
  pairingId: string,
  store: PairingStore | undefined,
  uri: string | null,
  hooks?: FlowHooks & { onEnd(): void },
): PairingFlow {
  const { vault, outbox } = env
  const stopPersisting = store ? persistWhilePaired(actor, store, vault, env.now) : () => undefined
  let queue: Promise<unknown> = Promise.resolve()

  const approval =
    hooks?.approval ??
    new Promise<PairedSessionData>((resolve, reject) => {
      const check = (snapshot: PairingSnapshot): boolean => {
        if (snapshot.matches(PAIRED) && snapshot.context.session) {
          resolve(snapshot.context.session)
          return true
        }
        if (snapshot.status === 'active') return false
        const error = snapshot.context.error ?? {
          code: 'ABORTED' as const,
          message: 'Pairing ended before approval.',
        }
        reject(toAppError(error))
        return true
      }
      const subscription = actor.subscribe({
        next: (snapshot) => {
          if (check(snapshot)) queueMicrotask(() => subscription.unsubscribe())
        },
        error: (error) => reject(error),
        complete: () => check(actor.getSnapshot()),
      })
    })
  // Callers who never await the approval must not see an unhandled rejection.
  approval.catch(() => undefined)

  // When the flow ends (or its actor is stopped), its keys go and its waiting requests fail.
  const end = () => {
    vault.delete(pairingId)
    outbox.rejectAll(new AppError('NOT_CONNECTED', 'The relay session has ended.'))
    hooks?.onEnd()
  }
  actor.subscribe({
    next(snapshot) {
      if (snapshot.status !== 'active') end()
    },
    complete: end,
  })

  async function whenIdle(): Promise<void> {
    const snapshot = actor.getSnapshot()
    if (snapshot.status !== 'active' || !snapshot.matches(PAIRED)) {
      throw new AppError('NOT_CONNECTED', 'No paired relay session (await flow.approval first).')
    }
    const idle = await waitFor(actor, (s) => s.status !== 'active' || s.matches(PAIRED_IDLE)).catch(
      () => actor.getSnapshot(),
    )
    if (idle.status !== 'active')
      throw new AppError('NOT_CONNECTED', 'The relay session has ended.')
  }

  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task)
    queue = run.catch(() => undefined)
    return run
  }

  const flow: PairingFlow = {
    uri,
    actor,
    approval,
    get session() {
      const snapshot = actor.getSnapshot()
      return snapshot.matches(PAIRED) ? snapshot.context.session : null
    },
    get namespaces() {
      return actor.getSnapshot().context.session?.namespaces ?? {}
    },
    request<T = unknown>(args: { method: string; params: unknown; chainId?: string }): Promise<T> {
      return serial(async () => {
        await whenIdle()
        const chainId =
          args.chainId ?? firstChain(flow.namespaces, NAMESPACE_OF_METHOD(args.method)) ?? ''
        const valid = SessionRequestParamsSchema.safeParse({
          chainId,
          request: { method: args.method, params: args.params },
        })
        if (!valid.success) {
          throw new AppError('INVALID_CONFIG', `Invalid ${args.method} request for the relay.`)
        }
        if (hooks) {
          // Through the root: the answer arrives by the outbox, the flow settles in the root.
          let requestId = ''
          const answer = new Promise<T>((resolve, reject) => {
            requestId = outbox.add({
              method: args.method,
              params: args.params,
              chainId,
              resolve: resolve as (value: unknown) => void,
              reject,
            })
          })
          const settled = hooks.submit(requestId, args.method).catch((error: unknown) => {
            outbox.take(requestId)
            throw error
          })
          return Promise.all([answer, settled]).then(([value]) => value)
        }
        return new Promise<T>((resolve, reject) => {
          const requestId = outbox.add({
            method: args.method,
            params: args.params,
            chainId,
            resolve: resolve as (value: unknown) => void,
            reject,
          })
          actor.send({ type: 'REQUEST', requestId, method: args.method })
          if (actor.getSnapshot().context.request?.requestId !== requestId) {
            outbox.take(requestId)
            reject(new AppError('NOT_CONNECTED', 'The relay session is not ready for requests.'))
          }
        })
      })
    },
    signMessage(message, options = {}) {
      const chainId = options.chainId ?? firstChain(flow.namespaces, 'eip155')
      const address =
        options.address ?? (chainId ? firstAccount(flow.namespaces, chainId) : undefined)
      if (!chainId || !address) {
        return Promise.reject(new AppError('NOT_CONNECTED', 'The session has no EVM account.'))
      }
      const hex = `0x${bytesToHex(utf8ToBytes(message))}`
      return flow.request<string>({ method: 'personal_sign', params: [hex, address], chainId })
    },
    signTypedData(typedData, options = {}) {
      return signTypedDataOverRelay(flow, typedData, options)
    },
    async signSolanaMessage(message, options = {}) {
      const chainId = options.chainId ?? firstChain(flow.namespaces, 'solana')
      const pubkey =
        options.pubkey ?? (chainId ? firstAccount(flow.namespaces, chainId) : undefined)
      if (!chainId || !pubkey)
        throw new AppError('NOT_CONNECTED', 'The session has no Solana account.')
      const bytes = typeof message === 'string' ? utf8ToBytes(message) : message
      const result = await flow.request<{ signature: string }>({
        method: 'solana_signMessage',
        params: { message: base58.encode(bytes), pubkey },
        chainId,
      })
      return result.signature
    },
    ping() {
      return serial(async () => {
        await whenIdle()
        const before = actor.getSnapshot().context.lastPingAt
        actor.send({ type: 'PING' })
        const after = await waitFor(actor, (s) => s.status !== 'active' || s.matches(PAIRED_IDLE))
        if (after.context.lastPingAt === before) {
          throw new AppError('TIMEOUT', 'The wallet did not answer the ping.')
        }
      })
    },
    async disconnect() {
      if (hooks) return hooks.disconnect()
      actor.send({ type: 'DISCONNECT' })
      await waitFor(actor, (s) => s.status !== 'active', { timeout: 30_000 }).catch(() => undefined)
    },
    stop() {
      stopPersisting()
      if (hooks) hooks.stop()
      else actor.stop()
    },
  }
  return flow
}

/**
 * Starts a pairing: draws the pairing topic, `symKeyP` and the dApp's X25519 key pair (kept in the
 * vault, never in the machine), returns the URI at once, and runs the `pairing` machine —
 * token, relay, proposal, the wallet's answer, settled keys — with the approval as a promise.
 *
 * @throws AppError `INVALID_CONFIG` for missing connection options (relay URL, token source, no
 * WebSocket), metadata or namespaces that do not validate.
 */
export function startPairing(options: PairingOptions): PairingFlow {
  if (!PeerMetadataSchema.safeParse(options.metadata).success) {
    throw new AppError('INVALID_CONFIG', 'metadata needs a name (1..100 characters) and a url.')
  }
  if (!CaipNamespacesSchema.safeParse(options.requiredNamespaces).success) {
    throw new AppError('INVALID_CONFIG', 'requiredNamespaces must be CAIP namespaces.')
  }
  const { relayUrl, relay, peer, now } = resolveConnection(options)
  const vault = options.vault ?? createMemoryPairingVault()
  const ttl = options.proposalTtlSeconds ?? RELAY_TTL_SECONDS.proposal
  const startedAt = now()
  const proposalExpiresAt = startedAt + ttl * 1000
  const pairing = createPairing(relayUrl, { expiryTimestamp: Math.floor(proposalExpiresAt / 1000) })
  const keyPair = generateKeyPair()
  const pairingId = bytesToHex(randomBytes(16))
  vault.set(pairingId, {
    pairingTopic: pairing.pairingTopic,
    symKeyP: pairing.symKeyP,
    privateKey: keyPair.privateKey,
    publicKey: keyPair.publicKey,
    uri: pairing.uri,
    sessionTopic: null,
    symKeyS: null,
  })
  const outbox = createOutbox()
  const env = { relay, peer, vault, outbox, ownsRelay: true, now }
  const actor = createActor(pairingMachine.provide({ actors: createPairingActors(env) }), {
    input: {
      pairingId,
      proposalId: peer.nextId(),
      relayUrl,
      requiredNamespaces: options.requiredNamespaces,
      metadata: options.metadata,
      proposalExpiresAt,
      startedAt,
    },
    ...inspectorOptions(options),
  })
  const flow = buildFlow(actor, env, pairingId, options.store, pairing.uri)
  actor.start()
  return flow
}

export type PairingResumeResult =
  | { status: 'resumed'; flow: PairingFlow }
  | { status: 'none' }
  | { status: 'discarded'; reason: string }

/**
 * Restores a settled session from `options.store` after a reload — the universal-link flow's
 * rules: a valid versioned envelope, the same machine version, not expired, a snapshot in the
 * resumable `paired.idle`; anything else is cleared and reported as `discarded`. The restored
 * actors reconnect the relay and resubscribe the session topic.
 *
 * @throws AppError `INVALID_CONFIG` without a store or connection options.
 */
export function resumePairing(
  options: PairingConnectionOptions & { store: PairingStore },
): PairingResumeResult {
  if (!options.store) throw new AppError('INVALID_CONFIG', 'resumePairing needs a store.')
  const stored = options.store.load()
  if (stored === null) return { status: 'none' }
  const now = options.now ?? Date.now
  const check = checkRestorablePairing(stored, now())
  if (!check.ok) {
    options.store.clear()
    return { status: 'discarded', reason: check.reason }
  }
  const { relay, peer } = resolveConnection(options)
  const vault = options.vault ?? createMemoryPairingVault()
  vault.set(check.pairingId, check.secrets)
  const outbox = createOutbox()
  const env = { relay, peer, vault, outbox, ownsRelay: true, now }
  const actor = createActor(pairingMachine.provide({ actors: createPairingActors(env) }), {
    snapshot: check.snapshot as never,
    input: undefined as never,
    ...inspectorOptions(options),
  })
  const flow = buildFlow(actor, env, check.pairingId, options.store, null)
  actor.start()
  if (actor.getSnapshot().status !== 'active') {
    options.store.clear()
    return { status: 'discarded', reason: 'the restored machine did not start' }
  }
  return { status: 'resumed', flow }
}

/** What the `Client` hands the pairing part it loads with its first `pair()` or `resume()`. */
export interface ClientPairingHost extends PairingConnectionOptions {
  /**
   * Told every secret the pairing handles (URI, topics, keys, relay tokens, the wallet's answers),
   * for the inspector's redaction by value.
   */
  onSecret(value: string): void
}

/** A pairing prepared for the root's `PAIR` event: the `pairing` child's input and the URI. */
export interface BegunPairing {
  input: PairingInput
  uri: string
}

const secretStrings = (secrets: PairingSecrets): string[] =>
  [
    secrets.pairingTopic,
    bytesToHex(secrets.symKeyP),
    secrets.privateKey && bytesToHex(secrets.privateKey),
    secrets.uri,
    secrets.sessionTopic,
    secrets.symKeyS && bytesToHex(secrets.symKeyS),
  ].filter((value): value is string => typeof value === 'string' && value.length > 0)

/**
 * The pairing part of the `Client`, in the chunk `pair()` and `resume()` load: the pairing machine
 * provided once (its actors find each pairing's relay client, peer and outbox by `pairingId`), for
 * the root to invoke as its `pairing` child; one vault whose every secret is reported to `onSecret`.
 */
export function createClientPairing(host: ClientPairingHost) {
  const inner = createMemoryPairingVault()
  const vault: PairingVault = {
    get: (id) => inner.get(id),
    set(id, secrets) {
      for (const value of secretStrings(secrets)) host.onSecret(value)
      inner.set(id, secrets)
    },
    delete: (id) => inner.delete(id),
  }
  const environments = new Map<
    string,
    PairingEnvironment & { outbox: ReturnType<typeof createOutbox> }
  >()
  const environmentOf = (pairingId: string) => {
    const env = environments.get(pairingId)
    if (env) return env
    throw new AppError('RELAY_ERROR', 'This pairing is no longer known (replaced or ended).')
  }
  /** Gives the pairing `pairingId` a relay client, peer and outbox of its own. */
  const register = (pairingId: string) => {
    const { relayUrl, relay, peer, now } = resolveConnection(host)
    environments.set(pairingId, {
      relay,
      peer,
      vault,
      outbox: reportingOutbox(host.onSecret),
      ownsRelay: true,
      now,
    })
    return { relayUrl, peer, now }
  }
  const machine = pairingMachine.provide({ actors: createPairingActors(environmentOf) })
  return {
    machine,
    vault,
    /**
     * Prepares a pairing (keys in the vault, a relay client of its own) and returns the input of
     * the root's `PAIR`. @throws `INVALID_CONFIG` (metadata, namespaces, connection options).
     */
    begin(options: Omit<PairingOptions, keyof PairingConnectionOptions>): BegunPairing {
      if (!PeerMetadataSchema.safeParse(options.metadata).success) {
        throw new AppError('INVALID_CONFIG', 'metadata needs a name (1..100 characters) and a url.')
      }
      if (!CaipNamespacesSchema.safeParse(options.requiredNamespaces).success) {
        throw new AppError('INVALID_CONFIG', 'requiredNamespaces must be CAIP namespaces.')
      }
      const pairingId = bytesToHex(randomBytes(16))
      const { relayUrl, peer, now } = register(pairingId)
      const ttl = options.proposalTtlSeconds ?? RELAY_TTL_SECONDS.proposal
      const startedAt = now()
      const proposalExpiresAt = startedAt + ttl * 1000
      const pairing = createPairing(relayUrl, {
        expiryTimestamp: Math.floor(proposalExpiresAt / 1000),
      })
      const keyPair = generateKeyPair()
      vault.set(pairingId, {
        pairingTopic: pairing.pairingTopic,
        symKeyP: pairing.symKeyP,
        privateKey: keyPair.privateKey,
        publicKey: keyPair.publicKey,
        uri: pairing.uri,
        sessionTopic: null,
        symKeyS: null,
      })
      const input: PairingInput = {
        pairingId,
        proposalId: peer.nextId(),
        relayUrl,
        requiredNamespaces: options.requiredNamespaces,
        metadata: options.metadata,
        proposalExpiresAt,
        startedAt,
      }
      return { input, uri: pairing.uri }
    },
    /** Puts restored session keys in the vault and gives the pairing a relay client again. */
    restore(pairingId: string, secrets: PairingSecrets): void {
      register(pairingId)
      vault.set(pairingId, secrets)
    },
    /** The `PairingFlow` of the root's `pairing` child `actor`: requests and approval go through the root. */
    flow(
      actor: PairingActor,
      pairingId: string,
      uri: string | null,
      hooks: FlowHooks,
    ): PairingFlow {
      const env = environmentOf(pairingId)
      return buildFlow(actor, env, pairingId, undefined, uri, {
        ...hooks,
        onEnd: () => environments.delete(pairingId),
      })
    },
  }
}

export type ClientPairing = ReturnType<typeof createClientPairing>
