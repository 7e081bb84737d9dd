import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
} from 'node:crypto'
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils.js'
import { base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import {
  deriveSessionKey,
  generateKeyPair,
  openEnvelope,
  sealEnvelope,
  topicOfKey,
} from '../../src/relay/crypto'

const topic = bytesToHex(randomBytes(32))
const key = randomBytes(32)

/** Node's own ChaCha20-Poly1305 (OpenSSL): an independent implementation to check ours against. */
function nodeOpen(symKey: Uint8Array, aad: Uint8Array, message: string): string {
  const bytes = Buffer.from(message, 'base64')
  const nonce = bytes.subarray(1, 13)
  const body = bytes.subarray(13, bytes.length - 16)
  const tag = bytes.subarray(bytes.length - 16)
  const decipher = createDecipheriv('chacha20-poly1305', symKey, nonce, { authTagLength: 16 })
  decipher.setAAD(aad, { plaintextLength: body.length })
  decipher.setAuthTag(tag)
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
}

function nodeSeal(symKey: Uint8Array, aad: Uint8Array, text: string): string {
  const nonce = randomBytes(12)
  const cipher = createCipheriv('chacha20-poly1305', symKey, nonce, { authTagLength: 16 })
  const plain = Buffer.from(text, 'utf8')
  cipher.setAAD(aad, { plaintextLength: plain.length })
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([Buffer.of(0), nonce, body, cipher.getAuthTag()]).toString('base64')
}

function expectRelayError(fn: () => unknown, reason: RegExp) {
  try {
    fn()
  } catch (error) {
    expect(isAppError(error, 'RELAY_ERROR')).toBe(true)
    const e = error as { details?: Array<{ field: string; reason: string }>; message: string }
    expect(e.details?.[0]?.field).toBe('envelope')
    expect(e.details?.[0]?.reason).toMatch(reason)
    expect(e.message).not.toContain(bytesToHex(key))
    return
  }
  throw new Error('expected a RELAY_ERROR')
}

describe('envelopes', () => {
  it('is base64 of type 0, a 12-byte nonce and ciphertext + 16-byte tag, the topic bytes as AAD', () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"scr_sessionPing","params":{}}'
    const message = sealEnvelope(key, topic, text)
    const bytes = base64.decode(message)
    expect(bytes[0]).toBe(0)
    expect(bytes.length).toBe(1 + 12 + new TextEncoder().encode(text).length + 16)
    // OpenSSL opens it with the raw 32 topic bytes as AAD…
    expect(nodeOpen(key, hexToBytes(topic), message)).toBe(text)
    // …and not with the hex text as AAD.
    expect(() => nodeOpen(key, new TextEncoder().encode(topic), message)).toThrow()
    // And we open what OpenSSL sealed.
    expect(openEnvelope(key, topic, nodeSeal(key, hexToBytes(topic), 'héllo ✓'))).toBe('héllo ✓')
  })

  it('draws a fresh nonce every time', () => {
    const a = sealEnvelope(key, topic, 'same')
    const b = sealEnvelope(key, topic, 'same')
    expect(a).not.toBe(b)
    expect(openEnvelope(key, topic, a)).toBe('same')
    expect(openEnvelope(key, topic, b)).toBe('same')
  })

  it('refuses a tampered ciphertext, tag or nonce', () => {
    const message = sealEnvelope(key, topic, 'payload')
    const bytes = base64.decode(message)
    for (const index of [1, 12, 13, bytes.length - 1]) {
      const tampered = bytes.slice()
      tampered[index] = (tampered[index] ?? 0) ^ 0x01
      expectRelayError(() => openEnvelope(key, topic, base64.encode(tampered)), /authentication/)
    }
  })

  it('refuses the wrong key and another topic', () => {
    const message = sealEnvelope(key, topic, 'payload')
    expectRelayError(() => openEnvelope(randomBytes(32), topic, message), /authentication/)
    const other = bytesToHex(randomBytes(32))
    expectRelayError(() => openEnvelope(key, other, message), /authentication/)
  })

  it('refuses malformed envelopes with a reason', () => {
    expectRelayError(() => openEnvelope(key, topic, 'not base64!'), /base64/)
    expectRelayError(() => openEnvelope(key, topic, base64.encode(new Uint8Array(28))), /short/)
    const bytes = base64.decode(sealEnvelope(key, topic, 'payload'))
    bytes[0] = 1
    expectRelayError(() => openEnvelope(key, topic, base64.encode(bytes)), /unknown type 1/)
  })

  it('refuses bad keys and topics as INVALID_CONFIG', () => {
    expect(() => sealEnvelope(new Uint8Array(31), topic, 'x')).toThrow(/32 bytes/)
    expect(() => sealEnvelope(key, topic.toUpperCase(), 'x')).toThrow(/64 lower-case hex/)
    try {
      openEnvelope(key, 'abc', 'AA==')
    } catch (error) {
      expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
    }
  })
})

describe('session keys', () => {
  it('both sides derive the same key and topic; it matches X25519 + HKDF-SHA256 from OpenSSL', () => {
    const dapp = generateKeyPair()
    const wallet = generateKeyPair()
    const a = deriveSessionKey(dapp.privateKey, wallet.publicKey)
    const b = deriveSessionKey(wallet.privateKey, dapp.publicKey)
    expect(bytesToHex(a.symKeyS)).toBe(bytesToHex(b.symKeyS))
    expect(a.topic).toBe(b.topic)
    expect(a.topic).toMatch(/^[0-9a-f]{64}$/)

    // Independent derivation with node:crypto.
    const pkcs8 = (priv: Uint8Array) =>
      createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), priv]),
        format: 'der',
        type: 'pkcs8',
      })
    const spki = (pub: string) =>
      createPublicKey({
        key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), hexToBytes(pub)]),
        format: 'der',
        type: 'spki',
      })
    const shared = diffieHellman({
      privateKey: pkcs8(dapp.privateKey),
      publicKey: spki(wallet.publicKey),
    })
    const expected = Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), 'scr/1 session', 32))
    expect(bytesToHex(a.symKeyS)).toBe(expected.toString('hex'))
    expect(a.topic).toBe(createHash('sha256').update(expected).digest('hex'))
    expect(topicOfKey(a.symKeyS)).toBe(a.topic)
  })

  it('a third key pair derives another key', () => {
    const dapp = generateKeyPair()
    const wallet = generateKeyPair()
    const eve = generateKeyPair()
    const good = deriveSessionKey(dapp.privateKey, wallet.publicKey)
    const bad = deriveSessionKey(eve.privateKey, wallet.publicKey)
    expect(bad.topic).not.toBe(good.topic)
  })

  it('refuses a malformed or low-order peer key with RELAY_ERROR', () => {
    const dapp = generateKeyPair()
    expect(() => deriveSessionKey(dapp.privateKey, 'zz')).toThrow(/invalid public key/)
    try {
      deriveSessionKey(dapp.privateKey, '00'.repeat(32))
      throw new Error('expected a throw')
    } catch (error) {
      expect(isAppError(error, 'RELAY_ERROR')).toBe(true)
    }
  })
})
