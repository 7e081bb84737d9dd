import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import type { Actor, SnapshotFrom } from 'xstate'
import {
  type RelaySessionRequester,
  signTypedDataOverRelay,
} from '../../src/eip3009/sign-over-relay'
import { AppError } from '../../src/errors/app-error'
import { SessionRequestParamsSchema } from '../../src/relay/protocol/schemas'
import type { SettledNamespaces } from '../../src/relay/types'
import { toAppError } from '../shared/error-data'
import type { PairingMachine } from './pairing.machine'
import { type PairingStore, persistWhilePaired } from './pairing.persistence'
import type { createOutbox } from './pairing.setup'
import type { PairedSessionData } from './pairing.types'
import type { PairingVault } from './pairing.vault'
import { toPairingView } from './pairing.view'

/** A running pairing machine. */
export type PairingActor = Actor<PairingMachine>
/** A snapshot of the pairing machine. */
export type PairingSnapshot = SnapshotFrom<PairingMachine>

/**
 * The handle `startPairing` / `resumePairing` return: a pairing in progress or settled — the URI at
 * once, the approval as a promise, then requests.
 */
export interface PairingHandle extends RelaySessionRequester {
  /** The pairing URI to show (QR code or deep link); `null` for a restored session. Secret-bearing. */
  readonly uri: string | null
  readonly actor: PairingActor
  /**
   * Resolves once paired; rejects with `USER_REJECTED`, `SESSION_EXPIRED`, `ABORTED`, `RELAY_ERROR`,
   * `WALLET_ERROR` (an approval whose accounts or chains are not valid)…
   */
  readonly approval: Promise<PairedSessionData>
  /** The settled session (public facts), or `null`. */
  readonly session: PairedSessionData | null
  /** `personal_sign` of a UTF-8 message; resolves with the 65-byte signature. */
  signMessage(
    message: string | { raw: `0x${string}` },
    options?: { address?: string; chainId?: string },
  ): Promise<string>
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

/** How a flow is driven when its machine is a child of the `Client`'s root (see `createClientPairing`). */
export interface FlowHooks {
  /** Sends request `requestId` through the root; settles with the root's flow (rejects on its error). */
  submit(requestId: string, method: string): Promise<unknown>
  /** The root's pairing flow, settled with the session. */
  approval: Promise<PairedSessionData>
  disconnect(): Promise<void>
  stop(): void
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

const ended = () => new AppError('NOT_CONNECTED', 'The relay session has ended.')

/**
 * Settles with `decide(snapshot)` once it returns something: `{ value }` resolves, `{ error }`
 * rejects. The machine's snapshots are the only source: no timer here (the chart has its named
 * timeouts) and no queue (the chart queues work that arrives while it is busy).
 */
function whenMachine<T>(
  actor: PairingActor,
  decide: (snapshot: PairingSnapshot) => { value: T } | { error: AppError } | null,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = (snapshot: PairingSnapshot): boolean => {
      const decision = decide(snapshot)
      if (decision === null) return false
      if ('error' in decision) reject(decision.error)
      else resolve(decision.value)
      return true
    }
    if (settle(actor.getSnapshot())) return
    const subscription = actor.subscribe({
      next: (snapshot) => {
        if (settle(snapshot)) queueMicrotask(() => subscription.unsubscribe())
      },
      error: (error) => reject(error),
      complete: () => {
        if (!settle(actor.getSnapshot())) reject(ended())
      },
    })
  })
}

/**
 * The `PairingHandle` over a running pairing actor: every call is an event of the machine, and each
 * settles from the machine's record of that call (`lastRequest`, `lastPing`, the final state).
 */
export function buildFlow(
  actor: PairingActor,
  env: { vault: PairingVault; outbox: ReturnType<typeof createOutbox>; now?: () => number },
  pairingId: string,
  store: PairingStore | undefined,
  uri: string | null,
  hooks?: FlowHooks & { onEnd(): void },
): PairingHandle {
  const { vault, outbox } = env
  const stopPersisting = store ? persistWhilePaired(actor, store, vault, env.now) : () => undefined
  let pings = 0

  const approval =
    hooks?.approval ??
    whenMachine<PairedSessionData>(actor, (snapshot) => {
      const view = toPairingView(snapshot)
      if ((view.phase === 'paired' || view.phase === 'ending') && view.session) {
        return { value: view.session }
      }
      if (view.phase !== 'ended') return null
      const error = snapshot.context.error ?? {
        code: 'ABORTED' as const,
        message: 'Pairing ended before approval.',
      }
      return { error: toAppError(error) }
    })
  // Callers who never await the approval must not see an unhandled rejection.
  approval.catch(() => undefined)

  // When the flow ends (or its actor is stopped), its keys and waiting results go.
  const end = () => {
    vault.delete(pairingId)
    outbox.clear()
    hooks?.onEnd()
  }
  actor.subscribe({
    next(snapshot) {
      if (snapshot.status !== 'active') end()
    },
    complete: end,
  })

  function requirePaired(): void {
    const { phase } = toPairingView(actor.getSnapshot())
    if (phase !== 'paired' && phase !== 'ending') {
      throw new AppError('NOT_CONNECTED', 'No paired relay session (await flow.approval first).')
    }
  }

  /** Whether the machine took request `requestId` (in flight, queued, or already recorded). */
  function accepted(requestId: string): boolean {
    const { context } = actor.getSnapshot()
    return (
      context.request?.requestId === requestId ||
      context.lastRequest?.requestId === requestId ||
      context.queue.some((work) => work.kind === 'request' && work.requestId === requestId)
    )
  }

  const flow: PairingHandle = {
    uri,
    actor,
    approval,
    get session() {
      const view = toPairingView(actor.getSnapshot())
      return view.phase === 'paired' || view.phase === 'ending' ? view.session : null
    },
    get namespaces() {
      return actor.getSnapshot().context.session?.namespaces ?? {}
    },
    async request<T = unknown>(args: {
      method: string
      params: unknown
      chainId?: string
    }): Promise<T> {
      requirePaired()
      const chainId =
        args.chainId ?? firstChain(flow.namespaces, NAMESPACE_OF_METHOD(args.method)) ?? ''
      const valid = SessionRequestParamsSchema.safeParse({
        chainId,
        request: { method: args.method, params: args.params },
      })
      if (!valid.success) {
        throw new AppError('INVALID_CONFIG', `Invalid ${args.method} request for the relay.`)
      }
      const requestId = outbox.add({ method: args.method, params: args.params, chainId })
      if (hooks) {
        // Through the root: it settles the flow; the result waits in the outbox.
        try {
          await hooks.submit(requestId, args.method)
        } finally {
          outbox.take(requestId)
        }
        return outbox.result(requestId) as T
      }
      actor.send({ type: 'REQUEST', requestId, method: args.method })
      if (!accepted(requestId)) {
        outbox.take(requestId)
        throw new AppError('NOT_CONNECTED', 'The relay session is not ready for requests.')
      }
      return whenMachine<T>(actor, (snapshot) => {
        const last = snapshot.context.lastRequest
        if (last?.requestId === requestId) {
          const result = outbox.result(requestId) as T
          return last.status === 'answered'
            ? { value: result }
            : { error: toAppError(last.error ?? { code: 'WALLET_ERROR', message: 'Failed.' }) }
        }
        return snapshot.status === 'active' ? null : { error: ended() }
      })
    },
    signMessage(message, options = {}) {
      const chainId = options.chainId ?? firstChain(flow.namespaces, 'eip155')
      const address =
        options.address ?? (chainId ? firstAccount(flow.namespaces, chainId) : undefined)
      if (!chainId || !address) {
        return Promise.reject(new AppError('NOT_CONNECTED', 'The session has no EVM account.'))
      }
      const hex =
        typeof message === 'string' ? `0x${bytesToHex(utf8ToBytes(message))}` : message.raw
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
    async ping() {
      requirePaired()
      const pingId = `p${++pings}`
      actor.send({ type: 'PING', pingId })
      return whenMachine<void>(actor, (snapshot) => {
        const last = snapshot.context.lastPing
        if (last?.pingId === pingId) {
          return last.status === 'answered'
            ? { value: undefined }
            : {
                error: new AppError('TIMEOUT', 'The wallet did not answer the ping.', {
                  cause: last.error,
                }),
              }
        }
        return snapshot.status === 'active' ? null : { error: ended() }
      })
    },
    async disconnect() {
      if (hooks) return hooks.disconnect()
      if (toPairingView(actor.getSnapshot()).phase === 'ended') return
      actor.send({ type: 'DISCONNECT' })
      // Not paired yet: nothing to tell the wallet; the flow ends as cancelled.
      if (toPairingView(actor.getSnapshot()).phase === 'pairing') actor.send({ type: 'CANCEL' })
      // The chart ends `deleting` by itself (its `deleteTimeout` at the latest).
      await whenMachine<void>(actor, (snapshot) =>
        snapshot.status === 'active' ? null : { value: undefined },
      ).catch(() => undefined)
    },
    stop() {
      stopPersisting()
      if (hooks) hooks.stop()
      else actor.stop()
    },
  }
  return flow
}
