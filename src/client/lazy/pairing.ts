// The chunk the client loads on its first pair() or resume() with a pairing store, by dynamic
// import: the pairing machine, the relay client and the pairing persistence stay out of the
// `Client` entry until then.
import type { AnyActorRef, AnyStateMachine } from 'xstate'
import type { SnapshotMigrations } from '../../../machines/client/client.persistence'
import {
  RELAY_RECORD_SCHEMA,
  rootRecordProblem,
} from '../../../machines/client/client.restore-values'
import {
  type ClientPairingHost,
  createClientPairing,
  type PairingActor,
  type PairingHandle,
} from '../../../machines/pairing/pairing.facade'
import type { PairingMachine } from '../../../machines/pairing/pairing.machine'
import {
  checkRestorablePairedRoot,
  type PairingRestoreCheck,
  type PairingStore,
  persistPairedRoot,
} from '../../../machines/pairing/pairing.persistence'
import { AppError } from '../../errors/app-error'
import { createLogger } from '../../logging'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { ChainNamespace } from '../../registry/types'
import type { PeerMetadata } from '../../relay/protocol/schemas'
import type { CaipNamespaces } from '../../relay/types'
import type { ClientLoaders } from '../environment'
import type { RootHost } from '../host'
import type { PairedSessionHost } from '../paired-session'
import type { ClientPairOptions } from '../pairing'

const log = /* @__PURE__ */ createLogger('client')

/** What the `Client` hands the pairing part: the relay settings and its root machine. */
export interface ClientPairingPartHost extends ClientPairingHost {
  migrations?: SnapshotMigrations
  /** The root machine with this pairing machine in place. */
  rootMachine(pairing: PairingMachine): AnyStateMachine
}

/**
 * The pairing part of the `Client`: the pairing machine its root invokes, the fingerprint of the
 * root definition, the restore check of a stored paired session and its persistence.
 */
export function loadClientPairing(host: ClientPairingPartHost) {
  const part = createClientPairing(host)
  const fingerprint = RELAY_RECORD_SCHEMA
  return {
    ...part,
    fingerprint,
    /** Checks a stored record; on success the vault gets its keys. Logs why a record is discarded. */
    check(stored: unknown): PairingRestoreCheck {
      const check = checkRestorablePairedRoot(stored, {
        machine: host.rootMachine(part.machine),
        fingerprint,
        values: rootRecordProblem,
        ...(host.migrations ? { migrations: host.migrations } : {}),
      })
      if (!check.ok) log.warn(`discarded the stored paired session: ${check.reason}`)
      else part.restore(check.pairingId, check.secrets)
      return check
    },
    /**
     * The `PairingHandle` of `root`'s `pairing` child: its requests are `RELAY.REQUEST` events of
     * the root (which settles them, with `signatureMs`), its approval is the root's flow `flow`.
     */
    open(
      root: RootHost,
      client: PairedSessionHost,
      opened: { pairingId: string; uri: string | null; flow: number },
    ): PairingHandle {
      const snapshot = root.actor.getSnapshot() as { children: Record<string, unknown> }
      const child = snapshot.children.pairing as PairingActor
      const approval = root.wait(opened.flow).then(() => {
        const session = child.getSnapshot().context.session
        if (session) return session
        throw new AppError('NOT_CONNECTED', 'The relay session has ended.')
      })
      approval.catch(() => undefined)
      return part.flow(child, opened.pairingId, opened.uri, {
        submit: (requestId, method) => root.run({ type: 'RELAY.REQUEST', requestId, method }),
        approval,
        disconnect: () => client.disconnect(),
        stop: () => {
          if (root.actor.getSnapshot().matches({ relay: 'pairing' })) client.cancel()
        },
      })
    },
    /** Saves the root's deep snapshot (keys beside it) while paired; clears it once the flow ends. */
    persist(root: AnyActorRef, store: PairingStore): () => void {
      return persistPairedRoot(root, store, part.vault, { fingerprint })
    },
  }
}

export type ClientPairingPart = ReturnType<typeof loadClientPairing>

/** The client's pairing part, built once (its machine in the root's place) from its options. */
export function clientPairingPart(loaders: ClientLoaders): ClientPairingPart {
  if (!loaders.pairingPart) {
    const { baseUrl, appKey, relayUrl, WebSocket, fetchImpl, pairing } = loaders.options
    loaders.pairingPart = loadClientPairing({
      baseUrl,
      appKey,
      ...(relayUrl ? { relayUrl } : {}),
      ...(WebSocket ? { WebSocket } : {}),
      ...(fetchImpl ? { fetchImpl } : {}),
      ...(pairing?.migrations ? { migrations: pairing.migrations } : {}),
      onSecret: (value) => loaders.secrets.add(value),
      relayConnection: () => loaders.host.root().actor.system.get('relayConnection'),
      rootMachine: (machine) => loaders.rootMachine({ pairing: machine }),
    })
    loaders.pairingLogic.set(loaders.pairingPart.machine)
  }
  return loaders.pairingPart
}

const DEFAULT_METHODS: Record<ChainNamespace, string[]> = {
  eip155: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'],
  solana: ['solana_signMessage'],
}

/** The proposal `pair()` sends when the caller names only a namespace (and maybe chains). */
function defaultRequiredNamespaces(options: ClientPairOptions): CaipNamespaces {
  if (options.requiredNamespaces) return options.requiredNamespaces
  const namespace = options.namespace ?? 'eip155'
  const chains = options.chains ?? [namespace === 'eip155' ? 'eip155:1' : SOLANA_MAINNET_CHAIN_ID]
  return { [namespace]: { chains: [...chains], methods: DEFAULT_METHODS[namespace] } }
}

/** The dApp as `pair()` presents it: `options.metadata`, else the page's title and origin. */
function pairMetadata(options: ClientPairOptions): PeerMetadata {
  if (options.metadata) return options.metadata
  if (typeof location === 'undefined' || typeof document === 'undefined') {
    throw new AppError('INVALID_CONFIG', 'pair() outside a page needs options.metadata.')
  }
  return { name: document.title || location.host, url: location.origin }
}

/**
 * Begins `Client.pair()`'s pairing with this part: the proposal (`options` or the defaults) and the
 * dApp's metadata. @throws `INVALID_CONFIG` (no metadata outside a page, a bad proposal).
 */
export function beginClientPairing(part: ClientPairingPart, options: ClientPairOptions) {
  const metadata = pairMetadata(options)
  return part.begin({
    requiredNamespaces: defaultRequiredNamespaces(options),
    metadata,
    ...(options.proposalTtlSeconds === undefined
      ? {}
      : { proposalTtlSeconds: options.proposalTtlSeconds }),
  })
}
