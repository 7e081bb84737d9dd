import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad } from '@scure/base'
import { buildSignedMessageEnvelope } from 'scope-connect'
import { API_PREFIX, ROUTES, SESSION_NONCE_HEADER } from 'scope-connect/wire'

/**
 * A reference Solana wallet for universal-link flows, as a wallet provider would build one: it reads
 * the `sc*` parameters of the link it was opened with, asks its user (here: `decide`), signs with
 * a real ed25519 key and posts the backend callback with the link's nonce in `X-Session-Nonce`
 * (the backend answers 404 without it). Used by the end-to-end tests.
 */
export interface WalletSimulatorOptions {
  /** 32-byte ed25519 secret key; a fresh one when absent. */
  secretKey?: Uint8Array
  /** The wallet slug it reports (`walletSlug` of the connect callback). */
  walletSlug: string
  fetchImpl?: typeof fetch
  now?: () => number
}

export type WalletDecision = 'approve' | 'reject' | 'fail'

export interface HandledLink {
  method: 'connect' | 'signMessage' | 'signTransaction'
  sessionId: string
  /** The status code of the callback the wallet posted. */
  callbackStatus: number
  /** Where the wallet sends the user back (`scReturnUrl`), if given. */
  returnUrl: string | null
}

export function createWalletSimulator(options: WalletSimulatorOptions) {
  const secretKey = options.secretKey ?? ed25519.utils.randomSecretKey()
  const publicKey = base58.encode(ed25519.getPublicKey(secretKey))
  const fetchImpl = options.fetchImpl ?? fetch
  const now = options.now ?? Date.now

  async function post(
    callbackBase: string,
    path: string,
    nonce: string,
    body: unknown,
  ): Promise<number> {
    const response = await fetchImpl(`${callbackBase}${API_PREFIX}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SESSION_NONCE_HEADER]: nonce },
      body: JSON.stringify(body),
    })
    return response.status
  }

  return {
    /** The wallet's address (base58 ed25519 public key). */
    address: publicKey,

    /** Opens a universal link as the wallet app would, and answers it. */
    async handle(link: string, decision: WalletDecision = 'approve'): Promise<HandledLink> {
      const params = new URL(link).searchParams
      const get = (name: string) => params.get(name)
      if (get('scVersion') !== '1') throw new Error(`unsupported scVersion ${get('scVersion')}`)
      const method = get('scMethod') as HandledLink['method']
      const sessionId = get('scSessionId') ?? ''
      const nonce = get('scNonce') ?? ''
      const chain = get('scChain') ?? ''
      const callback = get('scCallback') ?? ''
      const returnUrl = get('scReturnUrl')
      if (!sessionId || !nonce || !chain || !callback)
        throw new Error('the link lacks sc* parameters')

      let callbackStatus: number
      if (decision !== 'approve') {
        const errorCode = decision === 'reject' ? 'USER_REJECTED' : 'WALLET_INTERNAL_ERROR'
        callbackStatus = await post(callback, ROUTES.callbackReject, nonce, {
          sessionId,
          errorCode,
        })
      } else if (method === 'connect') {
        callbackStatus = await post(callback, ROUTES.callbackConnect, nonce, {
          sessionId,
          walletSlug: options.walletSlug,
          caip2Chain: chain,
          walletAddress: publicKey,
        })
      } else if (method === 'signMessage') {
        const timestamp = now()
        const message = buildSignedMessageEnvelope(sessionId, nonce, publicKey, timestamp)
        const signature = base58.encode(ed25519.sign(new TextEncoder().encode(message), secretKey))
        callbackStatus = await post(callback, ROUTES.callbackSign, nonce, {
          sessionId,
          signature,
          timestamp,
          publicKey,
        })
      } else if (method === 'signTransaction') {
        const payload = base64urlnopad.decode(get('scPayload') ?? '')
        // A Solana transaction's id is its first signature, base58.
        const txSignature = base58.encode(ed25519.sign(payload, secretKey))
        callbackStatus = await post(callback, ROUTES.callbackTransaction, nonce, {
          sessionId,
          txSignature,
        })
      } else {
        throw new Error(`unsupported scMethod ${method}`)
      }
      return { method, sessionId, callbackStatus, returnUrl }
    },
  }
}

export type WalletSimulator = ReturnType<typeof createWalletSimulator>
