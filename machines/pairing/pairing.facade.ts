import { createActor } from 'xstate'
import { AppError } from '../../src/errors/app-error'
import { requireFunction } from '../../src/errors/arguments'
import { requireInspectionOptions, requireMethods } from '../shared/argument-shapes'
import { inspectorOptions } from '../shared/inspect'
import { createPairingActors } from './pairing.actors'
import { buildFlow, type PairingActor, type PairingHandle } from './pairing.flow'
import { pairingMachine } from './pairing.machine'
import { checkRestorablePairing, type PairingStore } from './pairing.persistence'
import {
  beginPairing,
  createOutbox,
  type PairingConnectionOptions,
  type PairingOptions,
  resolveConnection,
} from './pairing.setup'
import { createMemoryPairingVault } from './pairing.vault'

export type { ClientPairing } from './pairing.client'
// The standalone pairing API. Its parts: connection and secrets (`pairing.setup`), the flow over a
// running actor (`pairing.flow`), the Client-hosted part (`pairing.client`).
export { type BegunPairing, type ClientPairingHost, createClientPairing } from './pairing.client'
export type { FlowHooks, PairingActor, PairingHandle, PairingSnapshot } from './pairing.flow'
export type { PairingConnectionOptions, PairingOptions } from './pairing.setup'

/**
 * Starts a pairing: draws the pairing topic, `symKeyP` and the dApp's X25519 key pair (kept in the
 * vault, never in the machine), returns the URI at once, and runs the `pairing` machine —
 * token, relay, proposal, the wallet's answer, settled keys — with the approval as a promise.
 *
 * @throws AppError `INVALID_CONFIG` for missing connection options (relay URL, token source, no
 * WebSocket), metadata or namespaces that do not validate, `options` that is not an object or an
 * `inspect` that is neither a function nor an observer.
 */
export function startPairing(options: PairingOptions): PairingHandle {
  requireInspectionOptions(options, 'startPairing')
  let actor: PairingActor | undefined
  const { relayUrl, relay, peer, now, connection } = resolveConnection(options, () =>
    actor?.system.get('relayConnection'),
  )
  const vault = options.vault ?? createMemoryPairingVault()
  const { input, uri } = beginPairing(options, {
    relayUrl,
    peer,
    now,
    vault,
    ...(options.relay ? { relay: options.relay } : {}),
  })
  const env = { relay, connection, peer, vault, outbox: createOutbox(), now }
  actor = createActor(pairingMachine.provide({ actors: createPairingActors(env) }), {
    input,
    ...inspectorOptions(options),
  })
  const flow = buildFlow(actor, env, input.pairingId, options.store, uri)
  actor.start()
  return flow
}

/** What `resumePairing` finds: a restored paired flow, or none. */
export type PairingResumeResult =
  | { status: 'resumed'; flow: PairingHandle }
  | { status: 'none' }
  | { status: 'discarded'; reason: string }

/**
 * Restores a settled session from `options.store` after a reload — the universal-link flow's
 * rules: a valid versioned envelope, the same machine version, not expired, a snapshot in the
 * resumable `paired.idle`; anything else is cleared and reported as `discarded`. The restored
 * actors reconnect the relay and resubscribe the session topic; the session's expiry counts only
 * what is left of it.
 *
 * @throws AppError `INVALID_CONFIG` without a store (with `load` / `clear`) or connection options,
 * or with `options` of the wrong types.
 */
export function resumePairing(
  options: PairingConnectionOptions & { store: PairingStore },
): PairingResumeResult {
  requireInspectionOptions(options, 'resumePairing')
  if (!options.store) throw new AppError('INVALID_CONFIG', 'resumePairing needs a store.')
  requireMethods(options.store, 'resumePairing: options.store', 'load clear')
  requireFunction(options.now, 'resumePairing: options.now', true)
  const stored = options.store.load()
  if (stored === null) return { status: 'none' }
  const now = options.now ?? Date.now
  const check = checkRestorablePairing(stored, now())
  if (!check.ok) {
    options.store.clear()
    return { status: 'discarded', reason: check.reason }
  }
  let actor: PairingActor | undefined
  const { relay, peer, connection } = resolveConnection(options, () =>
    actor?.system.get('relayConnection'),
  )
  const vault = options.vault ?? createMemoryPairingVault()
  vault.set(check.pairingId, check.secrets)
  const env = { relay, connection, peer, vault, outbox: createOutbox(), now }
  actor = createActor(pairingMachine.provide({ actors: createPairingActors(env) }), {
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
