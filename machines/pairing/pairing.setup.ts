import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { AppError } from '../../src/errors/app-error'
import type { FetchLike } from '../../src/http/client'
import { relayConnectionSettings } from '../../src/relay/client/settings'
import { createRelayTokenSource, relayUrlForBaseUrl } from '../../src/relay/client/token-source'
import type { WebSocketConstructor } from '../../src/relay/client/websocket'
import { createPairing } from '../../src/relay/create-pairing'
import { generateKeyPair } from '../../src/relay/crypto/session-key'
import {
  createHostedRelayClient,
  type RelayClientOptions,
  type RelayConnectionRef,
} from '../../src/relay/face/relay-client'
import { createMemoryKeyring } from '../../src/relay/peer/keyring'
import { createRelayPeer, type RelayPeer } from '../../src/relay/peer/relay-peer'
import {
  CaipNamespacesSchema,
  type PeerMetadata,
  PeerMetadataSchema,
} from '../../src/relay/protocol/schemas'
import type { CaipNamespaces, RelayTokenGrant } from '../../src/relay/types'
import { RELAY_TTL_SECONDS } from '../../src/wire/relay'
import type { InspectionOptions } from '../shared/inspect'
import type { OutboxEntry, PairingOutbox } from './pairing.actors'
import type { PairingStore } from './pairing.persistence'
import type { PairingInput } from './pairing.types'
import type { PairingVault } from './pairing.vault'

/**
 * How a pairing reaches the relay and keeps its session: the backend or relay URL, the token
 * source, the `WebSocket` class, the store and vault, the clock and inspection.
 */
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

/**
 * Options of `startPairing`: the relay connection plus the namespaces to request, the dApp's
 * metadata and the proposal's lifetime.
 */
export interface PairingOptions extends PairingConnectionOptions {
  requiredNamespaces: CaipNamespaces
  /** The dApp as the wallet shows it. */
  metadata: PeerMetadata
  /** How long the wallet has to answer. Default 300 s. */
  proposalTtlSeconds?: number
  /** A wallet request or ping without an answer after this long fails with `TIMEOUT`. Default 300 s. */
  requestTimeoutMs?: number
}

/** What a pairing needs of its options besides the connection. */
export type PairingRequirements = Omit<PairingOptions, keyof PairingConnectionOptions>

/**
 * A relay client and its peer for one pairing, from the connection options. The client follows
 * the pairing's `relayConnection` child, which `locate` finds in the pairing's actor system; when
 * the pairing stops it, the peer lets go of its waiting requests. @throws `INVALID_CONFIG`.
 */
export function resolveConnection(
  options: PairingConnectionOptions & { onSecret?: (value: string) => void },
  locate: () => RelayConnectionRef | undefined,
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
  const hosted = createHostedRelayClient(
    {
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
    },
    { locate, onEnd: () => peer.detach() },
  )
  const relay = hosted.client
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
  return {
    relayUrl,
    relay,
    peer,
    now,
    connection: { environment: hosted.environment, random: hosted.random },
  }
}

/** Every string of a wallet's answer (a signature, `{ signature, publicKey }`, …). */
export function answerStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) answerStrings(item, out)
  return out
}

/**
 * The outbox of one pairing: params out by id, results back by id; no promise inside.
 * `onAnswer` sees each answer as it arrives (the Client registers its strings as secrets).
 */
export function createOutbox(onAnswer?: (result: unknown) => void): PairingOutbox & {
  add(entry: OutboxEntry): string
  /** The wallet's result for `requestId` (once). */
  result(requestId: string): unknown
  clear(): void
} {
  const entries = new Map<string, OutboxEntry>()
  const results = new Map<string, unknown>()
  // Ids unique across page loads: a restored pairing remembers its last request's id, and a new
  // page's `r1` must never be taken for the old, answered one.
  const page = Math.random().toString(36).slice(2, 10)
  let next = 1
  return {
    add(entry) {
      const id = `r${page}.${next++}`
      entries.set(id, entry)
      return id
    },
    take(id) {
      const entry = entries.get(id)
      entries.delete(id)
      return entry
    },
    answer(id, result) {
      onAnswer?.(result)
      results.set(id, result)
    },
    result(id) {
      const result = results.get(id)
      results.delete(id)
      return result
    },
    clear() {
      entries.clear()
      results.clear()
    },
  }
}

/**
 * Starts a pairing's secrets and the machine's input: checks metadata and namespaces, draws the
 * pairing topic, `symKeyP` and the dApp's X25519 key pair into `vault` under a new `pairingId`.
 * One path for `startPairing` and the `Client`'s `pair()`.
 *
 * @throws AppError `INVALID_CONFIG` for metadata or namespaces that do not validate.
 */
export function beginPairing(
  options: PairingRequirements,
  connection: {
    relayUrl: string
    peer: RelayPeer
    now: () => number
    vault: PairingVault
    /** The relay connection's timing (`PairingConnectionOptions.relay`). */
    relay?: PairingConnectionOptions['relay']
  },
  pairingId: string = bytesToHex(randomBytes(16)),
): { input: PairingInput; uri: string } {
  if (!PeerMetadataSchema.safeParse(options.metadata).success) {
    throw new AppError('INVALID_CONFIG', 'metadata needs a name (1..100 characters) and a url.')
  }
  if (!CaipNamespacesSchema.safeParse(options.requiredNamespaces).success) {
    throw new AppError('INVALID_CONFIG', 'requiredNamespaces must be CAIP namespaces.')
  }
  const { relayUrl, peer, now, vault } = connection
  const ttl = options.proposalTtlSeconds ?? RELAY_TTL_SECONDS.proposal
  const startedAt = now()
  const proposalExpiresAt = startedAt + ttl * 1000
  const pairing = createPairing(relayUrl, { expiryTimestamp: Math.floor(proposalExpiresAt / 1000) })
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
  return {
    input: {
      pairingId,
      proposalId: peer.nextId(),
      relayUrl,
      requiredNamespaces: options.requiredNamespaces,
      metadata: options.metadata,
      proposalExpiresAt,
      startedAt,
      ...(options.requestTimeoutMs === undefined
        ? {}
        : { requestTimeoutMs: options.requestTimeoutMs }),
      relay: relayConnectionSettings(connection.relay),
    },
    uri: pairing.uri,
  }
}
