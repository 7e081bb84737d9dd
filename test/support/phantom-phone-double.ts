// A TEST DOUBLE of a phone wallet speaking Phantom's deeplink protocol v1, written from Phantom's
// public docs (docs.phantom.com, "Phantom deeplinks": Connect, Disconnect, SignMessage,
// SignAndSendTransaction, Encryption, Handle sessions): no Phantom app runs here. It reads the
// link the dApp opened, decrypts its payload with its own x25519 key (NaCl box: x25519 + HSalsa20,
// xsalsa20poly1305), signs with a real ed25519 key and builds the redirect back to `redirect_link`
// with `phantom_encryption_public_key`, `nonce`, `data` — or `errorCode`, `errorMessage`.
import { ed25519, x25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { boxBefore, openJson, sealJson } from '../../src/phantom-link/box'

/** How the double answers the next link. */
export type PhoneDoubleMode =
  | 'approve'
  /** The user says no: `errorCode=4001`. */
  | 'reject'
  /** Phantom's internal error: `errorCode=-32603`. */
  | 'error'

/** What the double saw in a request, for assertions. */
export interface PhoneDoubleRequest {
  method: string
  params: Record<string, string>
  /** The decrypted `payload` (later methods). */
  payload: Record<string, unknown> | null
}

export function createPhantomPhoneDouble(options: { baseUrl?: string } = {}) {
  const baseUrl = options.baseUrl ?? 'https://phantom.app/ul/v1/'
  const account = ed25519.keygen()
  const encryption = x25519.keygen()
  /** Shared keys by the dApp's encryption public key (the docs' "mapping"). */
  const shared = new Map<string, Uint8Array>()
  const sessions = new Set<string>()
  const requests: PhoneDoubleRequest[] = []
  let mode: PhoneDoubleMode = 'approve'

  const redirect = (redirectLink: string, params: Record<string, string>) => {
    const url = new URL(redirectLink)
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    return url.toString()
  }
  const answer = (redirectLink: string, key: Uint8Array, value: unknown, withKey: boolean) => {
    const sealed = sealJson(key, value)
    return redirect(redirectLink, {
      ...(withKey ? { phantom_encryption_public_key: base58.encode(encryption.publicKey) } : {}),
      nonce: sealed.nonce,
      data: sealed.data,
    })
  }

  return {
    /** The account (base58 ed25519 public key). */
    address: base58.encode(account.publicKey),
    /** The wallet's x25519 public key (base58). */
    encryptionPublicKey: base58.encode(encryption.publicKey),
    requests,
    setMode(next: PhoneDoubleMode) {
      mode = next
    },
    /** Sessions the double still honours. */
    sessionCount: () => sessions.size,
    /**
     * Handles one link the dApp opened: the URL the wallet sends the user back to, or null when
     * the method answers nothing (`disconnect` redirects with no parameters: the bare link).
     */
    handle(link: string): string {
      if (!link.startsWith(baseUrl)) throw new Error(`not a link of ${baseUrl}: ${link}`)
      const url = new URL(link)
      const method = url.pathname.split('/').pop() ?? ''
      const params = Object.fromEntries(url.searchParams)
      const redirectLink = params.redirect_link
      const dappKey = params.dapp_encryption_public_key
      if (!redirectLink || !dappKey)
        throw new Error('redirect_link and dapp_encryption_public_key are required')
      let payload: Record<string, unknown> | null = null
      if (method !== 'connect') {
        const key = shared.get(dappKey)
        payload = key
          ? (openJson(key, params.nonce ?? '', params.payload ?? '') as Record<string, unknown>)
          : null
      }
      requests.push({ method, params, payload })
      if (mode === 'reject')
        return redirect(redirectLink, {
          errorCode: '4001',
          errorMessage: 'User rejected the request.',
        })
      if (mode === 'error')
        return redirect(redirectLink, { errorCode: '-32603', errorMessage: 'Unexpected error' })
      if (method === 'connect') {
        const key = boxBefore(base58.decode(dappKey), encryption.secretKey)
        shared.set(dappKey, key)
        const claims = { app_url: params.app_url, cluster: params.cluster, chain: 'solana' }
        const body = new TextEncoder().encode(JSON.stringify(claims))
        const session = base58.encode(
          new Uint8Array([...body, ...ed25519.sign(body, account.secretKey)]),
        )
        sessions.add(session)
        return answer(
          redirectLink,
          key,
          { public_key: base58.encode(account.publicKey), session },
          true,
        )
      }
      const key = shared.get(dappKey)
      if (!key || !payload || typeof payload.session !== 'string' || !sessions.has(payload.session))
        return redirect(redirectLink, { errorCode: '4100', errorMessage: 'Unauthorized' })
      if (method === 'disconnect') {
        sessions.delete(payload.session)
        shared.delete(dappKey)
        return redirectLink
      }
      if (method === 'signMessage') {
        const message = base58.decode(String(payload.message))
        const signature = ed25519.sign(message, account.secretKey)
        return answer(redirectLink, key, { signature: base58.encode(signature) }, false)
      }
      if (method === 'signAndSendTransaction') {
        // The double signs the serialized bytes it was given: the signature is the transaction's id.
        const transaction = base58.decode(String(payload.transaction))
        const signature = ed25519.sign(transaction, account.secretKey)
        return answer(redirectLink, key, { signature: base58.encode(signature) }, false)
      }
      return redirect(redirectLink, { errorCode: '-32601', errorMessage: 'Method not found' })
    },
    /** Verifies an ed25519 signature of the account over `message` bytes. */
    verify(signature: string, message: Uint8Array): boolean {
      return ed25519.verify(base58.decode(signature), message, account.publicKey)
    },
    /** Seals `value` for the dApp key of `link`'s request as a redirect (a malformed answer). */
    sealFor(dappKey: string, redirectLink: string, value: unknown): string {
      const key = shared.get(dappKey) ?? boxBefore(base58.decode(dappKey), encryption.secretKey)
      return answer(redirectLink, key, value, true)
    },
  }
}

export type PhantomPhoneDouble = ReturnType<typeof createPhantomPhoneDouble>
