import { bytesToHex } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { createClientPairing } from '../../machines/pairing/pairing.facade'
import { isAppError } from '../../src/errors'
import { parsePairingUri } from '../../src/relay'
import { DAPP_METADATA, EVM_NAMESPACES, WS } from './support/pairing-setup'

// The Client's pairing part reports every secret its vault receives, so the root's redacting
// inspector replaces it by value: the URI, the pairing topic and key, the private key, and later
// the session topic and key.

function part() {
  const secrets: string[] = []
  const pairing = createClientPairing({
    relayUrl: 'ws://127.0.0.1:9/api/v1/connect/relay',
    getToken: async () => ({ token: 't'.repeat(32), expiresAt: Date.now() + 60_000 }),
    WebSocket: WS,
    onSecret: (value) => secrets.push(value),
    relayConnection: () => undefined,
  })
  return { pairing, secrets }
}

describe('createClientPairing', () => {
  it('begin() keeps the keys in the vault, reports each one, and gives the root a secret-free input', () => {
    const { pairing, secrets } = part()
    const begun = pairing.begin({ requiredNamespaces: EVM_NAMESPACES, metadata: DAPP_METADATA })
    const stored = pairing.vault.get(begun.input.pairingId)
    const { pairingTopic, symKeyP } = parsePairingUri(begun.uri)
    expect(stored?.privateKey).toBeInstanceOf(Uint8Array)
    expect(secrets).toEqual(
      expect.arrayContaining([
        begun.uri,
        pairingTopic,
        bytesToHex(symKeyP),
        bytesToHex(stored?.privateKey as Uint8Array),
      ]),
    )
    const input = JSON.stringify(begun.input)
    for (const secret of secrets) expect(input).not.toContain(secret)
    expect(begun.input).toMatchObject({ relayUrl: 'ws://127.0.0.1:9/api/v1/connect/relay' })
  })

  it('restore() reports the session keys; begin() refuses bad metadata with INVALID_CONFIG', () => {
    const { pairing, secrets } = part()
    const symKeyS = new Uint8Array(32).fill(7)
    pairing.restore('ab'.repeat(16), {
      pairingTopic: '',
      symKeyP: new Uint8Array(0),
      privateKey: null,
      publicKey: 'cd'.repeat(32),
      uri: '',
      sessionTopic: 'ef'.repeat(32),
      symKeyS,
    })
    expect(secrets).toEqual(['ef'.repeat(32), bytesToHex(symKeyS)])
    const error = (() => {
      try {
        pairing.begin({ requiredNamespaces: EVM_NAMESPACES, metadata: { name: '', url: 'x' } })
      } catch (caught) {
        return caught
      }
    })()
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
  })
})
