import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { buildSignedMessageEnvelope } from '../../wire/envelope'
import { API_PREFIX, ROUTES, SESSION_NONCE_HEADER } from '../../wire/routes'

/**
 * A phone wallet for the universal-link flow, as `examples/wallet-simulator` is: it reads the `sc*`
 * parameters of the link the dApp opened and posts the backend callback with the link's nonce
 * (`X-Session-Nonce`): the connect callback with its address (a `signMessage` link: the sign
 * callback with the session envelope signed by its key), a rejection (`USER_REJECTED`), or
 * a failure of its own (`error`: `WALLET_INTERNAL_ERROR`, which the backend records as `failed`).
 * Its address is the base58 ed25519 public key of `secretKey`.
 */
export interface PhoneWallet {
  readonly address: string
  /** Answers `link`; resolves with the callback's status code (204 when the backend took it). */
  answer(link: string, behaviour: PhoneAnswer): Promise<number>
}

/** How the phone answers a link: it approves, the user rejects, or the wallet app fails. */
export type PhoneAnswer = 'approve' | 'reject' | 'error'

/** The `errorCode` of the reject callback for each way of not approving. */
const REJECT_CODES = { reject: 'USER_REJECTED', error: 'WALLET_INTERNAL_ERROR' } as const

export function createPhoneWallet(options: {
  secretKey: Uint8Array
  walletSlug: string
  fetchImpl?: typeof fetch
}): PhoneWallet {
  const address = base58.encode(ed25519.getPublicKey(options.secretKey))
  const fetchImpl = options.fetchImpl ?? fetch
  return {
    address,
    async answer(link, behaviour) {
      const params = new URL(link).searchParams
      const sessionId = params.get('scSessionId') ?? ''
      const nonce = params.get('scNonce') ?? ''
      const callback = params.get('scCallback') ?? ''
      const approve = (): [string, Record<string, unknown>] => {
        if (params.get('scMethod') !== 'signMessage')
          return [
            ROUTES.callbackConnect,
            {
              sessionId,
              walletSlug: options.walletSlug,
              caip2Chain: params.get('scChain') ?? '',
              walletAddress: address,
            },
          ]
        // A signature link: the session envelope, signed with the wallet's ed25519 key.
        const timestamp = Date.now()
        const message = buildSignedMessageEnvelope(sessionId, nonce, address, timestamp)
        const signature = ed25519.sign(new TextEncoder().encode(message), options.secretKey)
        return [
          ROUTES.callbackSign,
          { sessionId, signature: base58.encode(signature), timestamp, publicKey: address },
        ]
      }
      const [route, body] =
        behaviour === 'approve'
          ? approve()
          : [ROUTES.callbackReject, { sessionId, errorCode: REJECT_CODES[behaviour] }]
      const response = await fetchImpl(`${callback}${API_PREFIX}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION_NONCE_HEADER]: nonce },
        body: JSON.stringify(body),
      })
      return response.status
    },
  }
}
