import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { AppError } from '../../src/errors/app-error'
import type { RelayConnectionRef } from '../../src/relay/face/relay-client'
import { createPairingActors, type PairingEnvironment } from './pairing.actors'
import { buildFlow, type FlowHooks, type PairingActor, type PairingHandle } from './pairing.flow'
import { pairingMachine } from './pairing.machine'
import {
  answerStrings,
  beginPairing,
  createOutbox,
  type PairingConnectionOptions,
  type PairingRequirements,
  resolveConnection,
} from './pairing.setup'
import type { PairingInput } from './pairing.types'
import { createMemoryPairingVault, type PairingSecrets, type PairingVault } from './pairing.vault'

/** What the `Client` hands the pairing part it loads with its first `pair()` or `resume()`. */
export interface ClientPairingHost extends PairingConnectionOptions {
  /** Told every secret the pairing handles (URI, topics, keys), for the inspector's redaction by value. */
  onSecret(value: string): void
  /** The running `relayConnection` child of the root's pairing (by its `systemId`), if any. */
  relayConnection(): RelayConnectionRef | undefined
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

type ClientPairingEnvironment = PairingEnvironment & { outbox: ReturnType<typeof createOutbox> }

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
  const environments = new Map<string, ClientPairingEnvironment>()
  const environmentOf = (pairingId: string) => {
    const env = environments.get(pairingId)
    if (env) return env
    throw new AppError('RELAY_ERROR', 'This pairing is no longer known (replaced or ended).')
  }
  /** Gives the pairing `pairingId` a relay client, peer and outbox of its own. */
  const register = (pairingId: string) => {
    // Only this pairing's connection: a replaced pairing's client must not reach the next one's.
    const locate = () => {
      const found = host.relayConnection()
      return found?.getSnapshot().context.connectionId === pairingId ? found : undefined
    }
    const { relayUrl, relay, peer, now, connection } = resolveConnection(host, locate)
    environments.set(pairingId, {
      relay,
      connection,
      peer,
      vault,
      // The wallet's answers (signatures) are secrets before anyone sees them.
      outbox: createOutbox((result) => {
        for (const value of answerStrings(result)) host.onSecret(value)
      }),
      now,
    })
    return { relayUrl, peer, now, ...(host.relay ? { relay: host.relay } : {}) }
  }
  const machine = pairingMachine.provide({ actors: createPairingActors(environmentOf) })
  return {
    machine,
    vault,
    /**
     * Prepares a pairing (keys in the vault, a relay client of its own) and returns the input of
     * the root's `PAIR`. @throws `INVALID_CONFIG` (metadata, namespaces, connection options).
     */
    begin(options: PairingRequirements): BegunPairing {
      const pairingId = bytesToHex(randomBytes(16))
      const connection = register(pairingId)
      try {
        return beginPairing(options, { ...connection, vault }, pairingId)
      } catch (error) {
        environments.get(pairingId)?.relay.close()
        environments.delete(pairingId)
        throw error
      }
    },
    /** Puts restored session keys in the vault and gives the pairing a relay client again. */
    restore(pairingId: string, secrets: PairingSecrets): void {
      register(pairingId)
      vault.set(pairingId, secrets)
    },
    /** The `PairingHandle` of the root's `pairing` child `actor`: requests and approval go through the root. */
    flow(
      actor: PairingActor,
      pairingId: string,
      uri: string | null,
      hooks: FlowHooks,
    ): PairingHandle {
      const env = environmentOf(pairingId)
      return buildFlow(actor, env, pairingId, undefined, uri, {
        ...hooks,
        onEnd: () => environments.delete(pairingId),
      })
    },
  }
}

export type ClientPairing = ReturnType<typeof createClientPairing>
