import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { AppError } from '../errors/app-error'
import { invalidArgument, requireObject } from '../errors/arguments'
import { createLogger } from '../logging'
import { baseUrlForRelayUrl, createRelayTokenSource } from '../relay/client/token-source'
import { deriveSessionKey, generateKeyPair } from '../relay/crypto/session-key'
import { createRelayClient, type RelayClient } from '../relay/face/relay-client'
import { parsePairingUri } from '../relay/parse-pairing-uri'
import { createMemoryKeyring } from '../relay/peer/keyring'
import { createRelayPeer, type IncomingRequest, type RelayPeer } from '../relay/peer/relay-peer'
import { responseErrorOf } from '../relay/peer/response-error'
import {
  SESSION_DELETE_CODES,
  SESSION_ERROR_CODES,
  SESSION_METHODS,
} from '../relay/protocol/methods'
import {
  type ApproveResult,
  PeerMetadataSchema,
  ProposeParamsSchema,
  SessionEventParamsSchema,
  SessionRequestParamsSchema,
  SettledNamespacesSchema,
  WALLET_RESULT_SCHEMAS,
} from '../relay/protocol/schemas'
import type { SettledNamespaces } from '../relay/types'
import { RELAY_TTL_SECONDS } from '../wire/relay'
import type {
  RelayWalletOptions,
  SessionProposal,
  WalletRequestHandler,
  WalletSession,
  WalletSessionRequest,
} from './types'

const log = /* @__PURE__ */ createLogger('wallet')

/** The wallet provider's relay client (`createRelayWallet`): pair from a URI, answer requests, ping, change accounts, disconnect. See docs/wallet.md. */
export interface RelayWallet {
  /**
   * Reads a pairing URI (QR code or deep link), connects to its relay and waits for the dApp's
   * proposal. Show the proposal to the user, then `approve` or `reject` it.
   * @throws AppError `INVALID_CONFIG` for a malformed URI (or no token source), `SESSION_EXPIRED`
   * when the URI's `expiryTimestamp` has passed, `TIMEOUT` when no proposal arrives in
   * `proposalWaitMs`, `RELAY_ERROR` / `BACKEND_ERROR` when the relay cannot be reached.
   */
  pair(uri: string): Promise<SessionProposal>
  /** The handler that answers dApp requests (one; a new call replaces it). */
  onRequest(handler: WalletRequestHandler): () => void
  /** Called when the dApp deleted a session. */
  onSessionDelete(listener: (session: WalletSession) => void): () => void
  /** Messages dropped (tampered, wrong key, replayed…), as `RELAY_ERROR`s. */
  onError(listener: (error: AppError) => void): () => void
  /** The sessions that are settled and not deleted. */
  sessions(): WalletSession[]
  /** Pings the dApp; resolves when it answered. */
  ping(sessionId: string): Promise<void>
  /**
   * Tells the dApp the wallet's accounts on `chainId` changed (`scr_sessionEvent`
   * `accountsChanged`; the active account first): the session's accounts on that chain become
   * `accounts`. A signature the dApp's `Client` is waiting for then rejects `ACCOUNT_CHANGED`.
   * @throws AppError `NOT_CONNECTED` (no such session), `INVALID_CONFIG` (a chain the session does
   * not have, or not 1 to 64 accounts that make CAIP-10 ids with it).
   */
  changeAccounts(sessionId: string, chainId: string, accounts: readonly string[]): Promise<void>
  /** Ends one session (or all): tells the dApp, unsubscribes, forgets the keys. */
  disconnect(sessionId?: string): Promise<void>
  /** Closes every relay connection (sessions are not deleted). */
  close(): void
}

interface Link {
  relay: RelayClient
  peer: RelayPeer
}

interface SessionEntry {
  session: WalletSession
  topic: string
  link: Link
}

const DEFAULT_PROPOSAL_WAIT_MS = 30_000

function handle(): string {
  return bytesToHex(randomBytes(16))
}

/** The CAIP-2 chains a settled namespace covers: its `chains`, and the chains of its accounts. */
function chainsOf(namespaces: SettledNamespaces): Set<string> {
  const chains = new Set<string>()
  for (const namespace of Object.values(namespaces)) {
    for (const chain of namespace.chains ?? []) chains.add(chain)
    for (const account of namespace.accounts) chains.add(account.split(':').slice(0, 2).join(':'))
  }
  return chains
}

function methodsOf(namespaces: SettledNamespaces, chainId: string): Set<string> | null {
  const namespace = namespaces[chainId.split(':')[0] ?? '']
  return namespace?.methods === undefined ? null : new Set(namespace.methods)
}

function accountsOf(namespaces: SettledNamespaces, chainId: string): string[] {
  const namespace = namespaces[chainId.split(':')[0] ?? '']
  return (namespace?.accounts ?? [])
    .filter((account) => account.startsWith(`${chainId}:`))
    .map((account) => account.slice(chainId.length + 1).toLowerCase())
}

/** The account a wallet call names, if any (EVM address or Solana public key). */
function accountOfRequest(request: WalletSessionRequest): string | null {
  switch (request.method) {
    case 'personal_sign':
      return request.params[1]
    case 'eth_signTypedData_v4':
      return request.params[0]
    case 'solana_signMessage':
      return request.params.pubkey
    case 'eth_sendTransaction':
      return request.params[0].from
    default:
      return null
  }
}

/**
 * The wallet provider's side of relay pairing (`scope-connect/wallet`): pair from a URI, see the
 * proposal, approve it with namespaces or reject it, answer requests, disconnect. One relay
 * connection per relay URL; keys stay inside this client. See docs/wallet.md.
 *
 * @throws AppError `INVALID_CONFIG` for options that are not an object, metadata that does not
 * validate, or `getToken`/`now`/`fetchImpl` that are not functions.
 */
export function createRelayWallet(options: RelayWalletOptions): RelayWallet {
  requireObject(options, 'options')
  for (const name of ['getToken', 'now', 'fetchImpl'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw invalidArgument(`options.${name}`, 'must be a function')
    }
  }
  if (!PeerMetadataSchema.safeParse(options.metadata).success) {
    throw new AppError('INVALID_CONFIG', 'metadata needs a name (1..100 characters) and a url.')
  }
  const now = options.now ?? Date.now
  const keyring = createMemoryKeyring()
  const links = new Map<string, Link>()
  const sessions = new Map<string, SessionEntry>()
  const byTopic = new Map<string, SessionEntry>()
  const proposals = new Map<string, (request: IncomingRequest) => void>() // pairing topic → waiter
  const deleteListeners = new Set<(session: WalletSession) => void>()
  const errorListeners = new Set<(error: AppError) => void>()
  let requestHandler: WalletRequestHandler | null = null

  function tokenSourceFor(relayUrl: string) {
    if (options.getToken) return options.getToken
    if (!options.appKey) {
      throw new AppError('INVALID_CONFIG', 'Pass getToken, or appKey for the backend token route.')
    }
    return createRelayTokenSource({
      baseUrl: options.baseUrl ?? baseUrlForRelayUrl(relayUrl),
      appKey: options.appKey,
      ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    })
  }

  function linkFor(relayUrl: string): Link {
    const existing = links.get(relayUrl)
    if (existing) return existing
    const relay = createRelayClient({
      relayUrl,
      getToken: tokenSourceFor(relayUrl),
      ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.keepaliveMs === undefined ? {} : { keepaliveMs: options.keepaliveMs }),
      now,
    })
    const peer = createRelayPeer({ relay, keyring, now })
    peer.onRequest((request) => void dispatch(request))
    peer.onError((error) => {
      for (const listener of errorListeners) listener(error)
    })
    const link = { relay, peer }
    links.set(relayUrl, link)
    return link
  }

  async function dispatch(incoming: IncomingRequest): Promise<void> {
    const waiter = proposals.get(incoming.topic)
    if (waiter && incoming.method === SESSION_METHODS.propose) return waiter(incoming)
    const entry = byTopic.get(incoming.topic)
    if (entry === undefined) return
    if (incoming.method === SESSION_METHODS.delete) {
      await entry.link.peer.respond(incoming, { result: true }).catch(() => undefined)
      await drop(entry)
      for (const listener of deleteListeners) listener(entry.session)
      return
    }
    if (incoming.method !== SESSION_METHODS.request) {
      await answerError(entry, incoming, SESSION_ERROR_CODES.UNSUPPORTED_METHOD, 'Unknown method.')
      return
    }
    await answerRequest(entry, incoming)
  }

  function answerError(
    entry: SessionEntry,
    incoming: IncomingRequest,
    code: number,
    message: string,
  ) {
    return entry.link.peer.respond(incoming, { error: { code, message } }).catch((error) => {
      log.debug('an error answer could not be sent', error)
    })
  }

  async function answerRequest(entry: SessionEntry, incoming: IncomingRequest): Promise<void> {
    const parsed = SessionRequestParamsSchema.safeParse(incoming.params)
    if (!parsed.success) {
      const known = (incoming.params as { request?: { method?: unknown } } | null)?.request?.method
      const unsupported = typeof known === 'string' && !(known in WALLET_RESULT_SCHEMAS)
      return answerError(
        entry,
        incoming,
        unsupported ? SESSION_ERROR_CODES.UNSUPPORTED_METHOD : SESSION_ERROR_CODES.INVALID_PARAMS,
        unsupported ? `The wallet does not serve ${known}.` : 'Invalid request params.',
      )
    }
    const { chainId, request } = parsed.data
    const { namespaces } = entry.session
    if (entry.session.expiresAt <= now()) {
      await answerError(entry, incoming, SESSION_ERROR_CODES.UNAUTHORIZED, 'The session expired.')
      return drop(entry)
    }
    const methods = methodsOf(namespaces, chainId)
    if (!chainsOf(namespaces).has(chainId) || (methods !== null && !methods.has(request.method))) {
      return answerError(
        entry,
        incoming,
        SESSION_ERROR_CODES.UNAUTHORIZED,
        'The chain or method is not part of the session.',
      )
    }
    const walletRequest = {
      ...request,
      id: incoming.id,
      chainId,
      session: entry.session,
    } as WalletSessionRequest
    const account = accountOfRequest(walletRequest)
    if (account !== null && !accountsOf(namespaces, chainId).includes(account.toLowerCase())) {
      return answerError(
        entry,
        incoming,
        SESSION_ERROR_CODES.UNAUTHORIZED,
        'The account is not part of the session.',
      )
    }
    if (requestHandler === null) {
      return answerError(entry, incoming, SESSION_ERROR_CODES.UNSUPPORTED_METHOD, 'No handler.')
    }
    let result: unknown
    try {
      result = await requestHandler(walletRequest)
    } catch (error) {
      await entry.link.peer
        .respond(incoming, { error: responseErrorOf(error) })
        .catch(() => undefined)
      return
    }
    if (!WALLET_RESULT_SCHEMAS[request.method].safeParse(result).success) {
      log.warn(`the request handler answered ${request.method} with a result of the wrong shape`)
      return answerError(entry, incoming, SESSION_ERROR_CODES.INTERNAL_ERROR, 'Invalid result.')
    }
    await entry.link.peer.respond(incoming, { result }).catch((error) => {
      log.debug('an answer could not be sent', error)
    })
  }

  async function drop(entry: SessionEntry): Promise<void> {
    sessions.delete(entry.session.id)
    byTopic.delete(entry.topic)
    await entry.link.peer.forget(entry.topic)
  }

  function waitForProposal(link: Link, topic: string): Promise<IncomingRequest> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        proposals.delete(topic)
        reject(new AppError('TIMEOUT', 'No session proposal arrived on the pairing topic.'))
      }, options.proposalWaitMs ?? DEFAULT_PROPOSAL_WAIT_MS)
      proposals.set(topic, (request) => {
        clearTimeout(timer)
        proposals.delete(topic)
        resolve(request)
      })
      link.peer.listen(topic, keyring.get(topic) as Uint8Array).catch((error) => {
        clearTimeout(timer)
        proposals.delete(topic)
        reject(error)
      })
    })
  }

  async function pair(uri: string): Promise<SessionProposal> {
    const parsed = parsePairingUri(uri)
    if (parsed.expiryTimestamp !== undefined && parsed.expiryTimestamp * 1000 <= now()) {
      throw new AppError('SESSION_EXPIRED', 'The pairing URI has expired: ask for a new QR code.')
    }
    const link = linkFor(parsed.relayUrl)
    const topic = parsed.pairingTopic
    keyring.set(topic, parsed.symKeyP)
    let incoming: IncomingRequest
    try {
      incoming = await waitForProposal(link, topic)
    } catch (error) {
      await link.peer.forget(topic).catch(() => undefined)
      throw error
    }
    const params = ProposeParamsSchema.safeParse(incoming.params)
    if (!params.success) {
      await link.peer
        .respond(incoming, {
          error: { code: SESSION_ERROR_CODES.INVALID_PARAMS, message: 'Invalid proposal.' },
        })
        .catch(() => undefined)
      await link.peer.forget(topic).catch(() => undefined)
      throw new AppError('RELAY_ERROR', 'The dApp sent a proposal that does not validate.')
    }
    return proposalOf(link, topic, incoming, params.data)
  }

  function proposalOf(
    link: Link,
    pairingTopic: string,
    incoming: IncomingRequest,
    params: NonNullable<ReturnType<typeof ProposeParamsSchema.safeParse>['data']>,
  ): SessionProposal {
    const expiresAt = params.expiryTimestamp * 1000
    let answered = false
    const once = () => {
      if (answered) throw new AppError('INVALID_CONFIG', 'The proposal was already answered.')
      answered = true
    }
    return {
      id: incoming.id,
      proposer: params.proposer,
      requiredNamespaces: params.requiredNamespaces,
      expiresAt,
      async approve({ namespaces }) {
        const valid = SettledNamespacesSchema.safeParse(namespaces)
        if (!valid.success) {
          throw new AppError(
            'INVALID_CONFIG',
            'namespaces must give CAIP-10 accounts per namespace.',
          )
        }
        const missing = Object.keys(params.requiredNamespaces).filter((n) => !(n in namespaces))
        if (missing.length > 0) {
          throw new AppError('INVALID_CONFIG', `namespaces lack required ${missing.join(', ')}.`)
        }
        if (expiresAt <= now()) {
          once()
          await link.peer
            .respond(incoming, {
              error: { code: SESSION_ERROR_CODES.PROPOSAL_EXPIRED, message: 'Proposal expired.' },
            })
            .catch(() => undefined)
          await link.peer.forget(pairingTopic).catch(() => undefined)
          throw new AppError('SESSION_EXPIRED', 'The proposal expired before it was approved.')
        }
        once()
        const own = generateKeyPair()
        const { symKeyS, topic } = deriveSessionKey(own.privateKey, params.proposer.publicKey)
        const ttl = options.sessionTtlSeconds ?? RELAY_TTL_SECONDS.session
        const session: WalletSession = {
          id: handle(),
          namespaces: valid.data,
          peer: params.proposer,
          expiresAt: now() + ttl * 1000,
        }
        const entry: SessionEntry = { session, topic, link }
        // Listen on the session topic before answering, so no early request is missed.
        await link.peer.listen(topic, symKeyS)
        sessions.set(session.id, entry)
        byTopic.set(topic, entry)
        const result: ApproveResult = {
          responder: { publicKey: own.publicKey, metadata: options.metadata },
          namespaces: valid.data,
          expiry: Math.floor(session.expiresAt / 1000),
        }
        try {
          await link.peer.respond(incoming, { result })
        } catch (error) {
          await drop(entry)
          throw error
        } finally {
          await link.peer.forget(pairingTopic).catch(() => undefined)
        }
        return session
      },
      async reject(reason = {}) {
        once()
        try {
          await link.peer.respond(incoming, {
            error: {
              code: reason.code ?? SESSION_ERROR_CODES.USER_REJECTED,
              message: reason.message ?? 'User rejected.',
            },
          })
        } finally {
          await link.peer.forget(pairingTopic).catch(() => undefined)
        }
      },
    }
  }

  function entryOf(sessionId: string): SessionEntry {
    const entry = sessions.get(sessionId)
    if (entry === undefined) throw new AppError('NOT_CONNECTED', 'No such wallet session.')
    return entry
  }

  return {
    pair,
    onRequest(handler) {
      requestHandler = handler
      return () => {
        if (requestHandler === handler) requestHandler = null
      }
    },
    onSessionDelete(listener) {
      deleteListeners.add(listener)
      return () => void deleteListeners.delete(listener)
    },
    onError(listener) {
      errorListeners.add(listener)
      return () => void errorListeners.delete(listener)
    },
    sessions: () => [...sessions.values()].map((entry) => entry.session),
    async ping(sessionId) {
      const entry = entryOf(sessionId)
      await entry.link.peer.request(entry.topic, SESSION_METHODS.ping, {}, { what: 'the ping' })
    },
    async changeAccounts(sessionId, chainId, accounts) {
      const entry = entryOf(sessionId)
      const namespace = chainId.split(':')[0] ?? ''
      const settled = entry.session.namespaces[namespace]
      const params = { chainId, event: { name: 'accountsChanged' as const, data: [...accounts] } }
      const prefix = `${chainId}:`
      const next = settled && {
        ...settled,
        accounts: [
          ...accounts.map((account) => prefix + account),
          ...settled.accounts.filter((account) => !account.startsWith(prefix)),
        ],
      }
      if (
        !next ||
        !chainsOf(entry.session.namespaces).has(chainId) ||
        !SessionEventParamsSchema.safeParse(params).success ||
        !SettledNamespacesSchema.safeParse({ [namespace]: next }).success
      ) {
        throw new AppError(
          'INVALID_CONFIG',
          'changeAccounts needs a chain of the session and 1 to 64 accounts of it.',
        )
      }
      entry.session = {
        ...entry.session,
        namespaces: { ...entry.session.namespaces, [namespace]: next },
      }
      await entry.link.peer.notify(entry.topic, SESSION_METHODS.event, params)
    },
    async disconnect(sessionId) {
      const entries = sessionId === undefined ? [...sessions.values()] : [entryOf(sessionId)]
      for (const entry of entries) {
        const body = { code: SESSION_DELETE_CODES.USER_DISCONNECTED, message: 'User disconnected.' }
        // The dApp may be gone: the delete waits in the mailbox, its answer is not awaited.
        await entry.link.peer
          .notify(entry.topic, SESSION_METHODS.delete, body)
          .catch((error) => log.debug('the delete could not be sent', error))
        await drop(entry)
      }
    },
    close() {
      for (const link of links.values()) {
        link.peer.detach()
        link.relay.close()
      }
      links.clear()
      sessions.clear()
      byTopic.clear()
    },
  }
}
