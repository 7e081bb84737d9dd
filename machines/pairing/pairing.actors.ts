import { type EventObject, fromCallback, fromPromise } from 'xstate'
import {
  checkedAnswer,
  checkedConnection,
  checkedEvent,
  checkedTransactionHash,
} from '../../src/connectors/wallet-answers'
import { AppError } from '../../src/errors/app-error'
import { createLogger } from '../../src/logging'
import { jitteredBackoff } from '../../src/relay/client/backoff'
import { deriveSessionKey } from '../../src/relay/crypto/session-key'
import type { RelayClient } from '../../src/relay/face/relay-client'
import type { RelayPeer } from '../../src/relay/peer/relay-peer'
import {
  SESSION_DELETE_CODES,
  SESSION_METHODS,
  type WalletRequestMethod,
} from '../../src/relay/protocol/methods'
import {
  type ApproveResult,
  ApproveResultSchema,
  DeleteParamsSchema,
  type ProposeParams,
  SessionEventParamsSchema,
  WALLET_RESULT_SCHEMAS,
} from '../../src/relay/protocol/schemas'
import { RELAY_LIMITS } from '../../src/wire/relay'
import {
  createRelayConnectionActors,
  type RelayConnectionEnvironment,
} from '../relay-connection/relay-connection.actors'
import { relayConnectionMachine } from '../relay-connection/relay-connection.machine'
import type {
  ActorTime,
  ApprovalOutput,
  AwaitApprovalInput,
  PairingEvent,
  PairingRefInput,
  SendRequestInput,
  SettleSessionInput,
} from './pairing.types'
import type { PairingSecrets, PairingVault } from './pairing.vault'

const log = createLogger('pairing')
const PROPOSAL_TIMEOUT_GRACE_MS = 5000

/** A wallet call waiting in the facade's outbox; the machine only sees its id and method. */
export interface OutboxEntry {
  method: string
  params: unknown
  chainId: string
}

/**
 * The wallet calls of a pairing, by id: their params go out through `sendRequest`, their results
 * come back beside the machine (a signature never enters context); the machine's `lastRequest`
 * says how each one ended.
 */
export interface PairingOutbox {
  /** Removes and returns the entry (a request is sent once). */
  take(requestId: string): OutboxEntry | undefined
  /** Keeps the wallet's result for the caller of `requestId`. */
  answer(requestId: string, result: unknown): void
}

/** What the pairing actors work with; the facade builds it. */
export interface PairingEnvironment {
  /** The relay client the peer talks through; it follows the pairing's `relayConnection` child. */
  relay: RelayClient
  /** What the `relayConnection` child's actors work with (the relay client's parts) and its jitter. */
  connection: { environment: RelayConnectionEnvironment; random: () => number }
  peer: RelayPeer
  vault: PairingVault
  outbox: PairingOutbox
  now?: () => number
}

function secretsOf(vault: PairingVault, pairingId: string): PairingSecrets {
  const secrets = vault.get(pairingId)
  if (secrets === undefined) {
    throw new AppError(
      'RELAY_ERROR',
      'The pairing keys are gone (another tab, or a cleared store).',
    )
  }
  return secrets
}

function sessionTopicOf(secrets: PairingSecrets): string {
  if (secrets.sessionTopic === null)
    throw new AppError('NOT_CONNECTED', 'The session is not settled.')
  return secrets.sessionTopic
}

/** Seconds the relay keeps a message that matters until `expiresAt`, within the relay's limits. */
function ttlUntil(expiresAt: number, now: number): number {
  const seconds = Math.ceil((expiresAt - now) / 1000)
  return Math.min(RELAY_LIMITS.maxTtlSeconds, Math.max(RELAY_LIMITS.minTtlSeconds, seconds))
}

/**
 * The accounts a wallet approved, checked as every wallet answer is (src/connectors/wallet-answers.ts):
 * in `eip155` and `solana`, each CAIP-10 account is an address of its namespace (EVM: 20-byte hex,
 * lower-case or EIP-55; Solana: a base58 32-byte key) on a chain of it, and the chains too.
 * Other namespaces pass as the protocol schema took them.
 */
function accountsValid(namespaces: ApproveResult['namespaces']): boolean {
  try {
    for (const namespace of ['eip155', 'solana'] as const) {
      const settled = namespaces[namespace]
      if (settled === undefined) continue
      const byChain = new Map<string, string[]>()
      for (const account of settled.accounts) {
        const cut = account.lastIndexOf(':')
        const chainId = account.slice(0, cut)
        byChain.set(chainId, [...(byChain.get(chainId) ?? []), account.slice(cut + 1)])
      }
      for (const chainId of settled.chains ?? []) byChain.set(chainId, byChain.get(chainId) ?? [])
      for (const [chainId, accounts] of byChain) {
        // A listed chain without an account of its own is checked with the namespace's first one.
        const checked = accounts.length > 0 ? accounts : [settled.accounts[0]?.split(':')[2] ?? '']
        checkedConnection({ connectorId: 'relay', namespace, chainId, accounts: checked })
      }
    }
    return true
  } catch {
    return false
  }
}

/**
 * A wallet's `scr_sessionEvent` as the pairing's `PEER.ACCOUNTS`, its accounts checked as every
 * wallet event is (`checkedEvent`: addresses of the chain's namespace, `eip155` or `solana`); null
 * (dropped) otherwise.
 */
function peerAccounts(params: unknown): PairingEvent | null {
  const parsed = SessionEventParamsSchema.safeParse(params)
  if (!parsed.success) return null
  const { chainId, event } = parsed.data
  const namespace = chainId.split(':')[0]
  if (namespace !== 'eip155' && namespace !== 'solana') return null
  const checked = checkedEvent({ type: 'accountsChanged', accounts: event.data }, namespace)
  if (checked === null || !chainValid(chainId, namespace)) return null
  return { type: 'PEER.ACCOUNTS', chainId, accounts: [...event.data] }
}

/** A chain id of the namespace, as a connection's is checked. */
function chainValid(chainId: string, namespace: 'eip155' | 'solana'): boolean {
  try {
    checkedConnection({
      connectorId: 'relay',
      namespace,
      chainId,
      accounts: [
        namespace === 'eip155'
          ? '0x0000000000000000000000000000000000000000'
          : '11111111111111111111111111111111',
      ],
    })
    return true
  } catch {
    return false
  }
}

/**
 * A wallet's result over the relay, checked as every wallet answer is: signatures (EVM hex of
 * whole bytes up to 8,192, Solana 64 bytes base58), a transaction hash of 32 bytes.
 * @throws `WALLET_ERROR` otherwise.
 */
function checkedResult(method: string, result: unknown): unknown {
  if (method === ('eth_sendTransaction' satisfies WalletRequestMethod))
    return checkedTransactionHash(result, method)
  return checkedAnswer(method, result)
}

/**
 * The pairing machine's I/O, bound to a relay client, its peer, the pairing vault and the
 * facade's request outbox — one environment, or one per pairing (a function of the `pairingId`, as
 * the `Client` does: its root invokes a new pairing per `pair()`). Every actor reports when it
 * finished (`at`); failures are `AppError`s whose messages hold no secret.
 */
export function createPairingActors(
  environment: PairingEnvironment | ((pairingId: string) => PairingEnvironment),
) {
  const envOf = (pairingId: string) =>
    typeof environment === 'function' ? environment(pairingId) : environment
  /** The injected clock of the pairing's environment (`Date.now` when it has none). */
  const clockOf = (pairingId: string) => envOf(pairingId).now ?? Date.now

  return {
    // The relay-connection chart, its actors in the pairing's environment (by `connectionId`,
    // the pairing's id); the pairing follows its snapshots.
    relayConnection: relayConnectionMachine.provide({
      actors: createRelayConnectionActors((id) => envOf(id).connection.environment),
      delays: {
        reconnectBackoff: ({ context }) =>
          jitteredBackoff(envOf(context.connectionId).connection.random)({ context }),
      },
    }),

    fetchRelayToken: fromPromise<ActorTime, PairingRefInput>(async ({ input }) => {
      await envOf(input.pairingId).relay.ensureToken()
      return { at: clockOf(input.pairingId)() }
    }),

    connectRelay: fromPromise<ActorTime, PairingRefInput>(async ({ input }) => {
      const { peer, vault } = envOf(input.pairingId)
      const secrets = secretsOf(vault, input.pairingId)
      await peer.listen(secrets.pairingTopic, secrets.symKeyP)
      return { at: clockOf(input.pairingId)() }
    }),

    awaitApproval: fromPromise<ApprovalOutput, AwaitApprovalInput>(async ({ input }) => {
      const { peer, vault } = envOf(input.pairingId)
      const secrets = secretsOf(vault, input.pairingId)
      const remainingMs = input.proposalExpiresAt - clockOf(input.pairingId)()
      if (remainingMs <= 0) throw new AppError('SESSION_EXPIRED', 'The proposal has expired.')
      const params: ProposeParams = {
        proposer: { publicKey: secrets.publicKey, metadata: input.metadata },
        requiredNamespaces: input.requiredNamespaces,
        expiryTimestamp: Math.floor(input.proposalExpiresAt / 1000),
      }
      // The machine's `proposalExpiry` delay decides; this timeout only backs it up.
      const answer = await peer
        .request(secrets.pairingTopic, SESSION_METHODS.propose, params, {
          id: input.proposalId,
          ttl: ttlUntil(input.proposalExpiresAt, clockOf(input.pairingId)()),
          timeoutMs: remainingMs + PROPOSAL_TIMEOUT_GRACE_MS,
          what: 'the session proposal',
        })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'TIMEOUT') {
            throw new AppError('SESSION_EXPIRED', 'The proposal expired without an answer.')
          }
          throw error
        })
      const approval = ApproveResultSchema.safeParse(answer)
      if (!approval.success || !accountsValid(approval.data.namespaces)) {
        throw new AppError(
          'WALLET_ERROR',
          'The wallet approved with an answer that does not validate (its accounts or chains).',
        )
      }
      const missing = Object.keys(input.requiredNamespaces).filter(
        (name) => !(name in approval.data.namespaces),
      )
      if (missing.length > 0) {
        throw new AppError('WALLET_ERROR', `The wallet approved without ${missing.join(', ')}.`)
      }
      return {
        session: {
          namespaces: approval.data.namespaces,
          peer: approval.data.responder,
          expiresAt: approval.data.expiry * 1000,
        },
        at: clockOf(input.pairingId)(),
      }
    }),

    settleSession: fromPromise<ActorTime, SettleSessionInput>(async ({ input }) => {
      const { peer, vault } = envOf(input.pairingId)
      const secrets = secretsOf(vault, input.pairingId)
      if (secrets.privateKey === null) throw new AppError('RELAY_ERROR', 'The pairing key is gone.')
      const { symKeyS, topic } = deriveSessionKey(secrets.privateKey, input.peerPublicKey)
      vault.set(input.pairingId, { ...secrets, privateKey: null, sessionTopic: topic, symKeyS })
      await peer.listen(topic, symKeyS)
      // The pairing is used once: its topic and key are no longer needed.
      await peer.forget(secrets.pairingTopic)
      return { at: clockOf(input.pairingId)() }
    }),

    maintainSession: fromCallback<EventObject, PairingRefInput>(({ input, sendBack }) => {
      const { peer, vault } = envOf(input.pairingId)
      const secrets = vault.get(input.pairingId)
      if (secrets?.sessionTopic == null || secrets.symKeyS === null) {
        sendBack({ type: 'PEER.DELETED', code: 0, message: 'the session keys are gone' })
        return () => undefined
      }
      const topic = secrets.sessionTopic
      peer.listen(topic, secrets.symKeyS).catch((error) => log.debug('resubscribe failed', error))
      const stop = peer.onRequest((request) => {
        if (request.topic !== topic) return
        if (request.method === SESSION_METHODS.event) {
          peer.respond(request, { result: true }).catch(() => undefined)
          const changed = peerAccounts(request.params)
          if (changed) sendBack(changed)
          else log.warn('dropped a wallet event that is not valid')
          return
        }
        // The dApp serves no wallet calls; only the wallet's delete and events matter here.
        if (request.method !== SESSION_METHODS.delete) return
        const reason = DeleteParamsSchema.safeParse(request.params)
        peer.respond(request, { result: true }).catch(() => undefined)
        sendBack({
          type: 'PEER.DELETED',
          code: reason.success ? reason.data.code : SESSION_DELETE_CODES.USER_DISCONNECTED,
          message: reason.success ? reason.data.message : 'deleted',
        })
      })
      // The chart's `sessionExpiry` delay counts from this time (what is left after a restore).
      sendBack({ type: 'SESSION.WATCHING', at: clockOf(input.pairingId)() })
      return stop
    }),

    // Stopped (the request was abandoned, the pairing ended): the peer stops waiting, so the
    // wallet's late answer is dropped there and never reaches the outbox.
    sendRequest: fromPromise<ActorTime, SendRequestInput>(async ({ input, signal }) => {
      const { peer, vault, outbox } = envOf(input.pairingId)
      const entry = outbox.take(input.requestId)
      if (entry === undefined) {
        throw new AppError('RELAY_ERROR', 'The request is no longer known (page reloaded?).')
      }
      try {
        const topic = sessionTopicOf(secretsOf(vault, input.pairingId))
        const result = await peer.request(
          topic,
          SESSION_METHODS.request,
          { chainId: entry.chainId, request: { method: entry.method, params: entry.params } },
          { what: entry.method, signal },
        )
        const schema = WALLET_RESULT_SCHEMAS[entry.method as WalletRequestMethod]
        if (schema !== undefined && !schema.safeParse(result).success) {
          throw new AppError(
            'WALLET_ERROR',
            `The wallet answered ${entry.method} with a result that is not valid.`,
          )
        }
        outbox.answer(input.requestId, checkedResult(entry.method, result))
        return { at: clockOf(input.pairingId)() }
      } catch (error) {
        throw error instanceof AppError
          ? error
          : new AppError('RELAY_ERROR', `${entry.method} failed.`, { cause: error })
      }
    }),

    pingPeer: fromPromise<ActorTime, PairingRefInput>(async ({ input }) => {
      const { peer, vault } = envOf(input.pairingId)
      const topic = sessionTopicOf(secretsOf(vault, input.pairingId))
      await peer.request(topic, SESSION_METHODS.ping, {}, { what: 'the ping', timeoutMs: 30_000 })
      return { at: clockOf(input.pairingId)() }
    }),

    deleteSession: fromPromise<ActorTime, PairingRefInput>(async ({ input }) => {
      const { peer, vault } = envOf(input.pairingId)
      const secrets = vault.get(input.pairingId)
      if (secrets?.sessionTopic) {
        await peer
          .notify(secrets.sessionTopic, SESSION_METHODS.delete, {
            code: SESSION_DELETE_CODES.USER_DISCONNECTED,
            message: 'User disconnected.',
          })
          .catch((error) => log.debug('the delete could not be sent', error))
        await peer.forget(secrets.sessionTopic)
      }
      return { at: clockOf(input.pairingId)() }
    }),
  }
}
