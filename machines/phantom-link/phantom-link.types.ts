import type { ErrorData } from '../shared/error-data'

/** A request sent to the wallet and not answered yet. */
export interface PhantomLinkRequest {
  /** Random id carried in `redirect_link`; an answer naming another flow is refused. */
  flow: string
  method: 'connect' | 'signMessage' | 'signAndSendTransaction'
  /** Milliseconds since the epoch: past it the request ends with `TIMEOUT`. */
  deadline: number
}

/** How the last request ended. */
export interface PhantomLinkOutcome {
  flow: string
  method: PhantomLinkRequest['method']
  /** Base58 signature (signMessage's, or the sent transaction's id). */
  signature: string | null
  error: ErrorData | null
}

/**
 * The chart's context: JSON-safe, persisted across the navigation to the wallet and back. The
 * dApp's x25519 secret key is the one secret kept (the wallet's `session` travels with it).
 */
export interface PhantomLinkContext {
  walletId: string
  chainId: string
  /** Base58 x25519 key pair of this connection (a new one per `connect`). */
  dappPublicKey: string | null
  dappSecretKey: string | null
  /** The wallet's x25519 public key (`phantom_encryption_public_key`). */
  walletEncryptionKey: string | null
  /** The wallet's `session`, sent back in every later request. */
  session: string | null
  /** The connected account (base58). */
  account: string | null
  request: PhantomLinkRequest | null
  /** Nonces of answers already taken (the latest 32): a replayed answer is refused. */
  seenNonces: string[]
  last: PhantomLinkOutcome | null
}

/** What the chart starts from. */
export interface PhantomLinkInput {
  walletId: string
  chainId: string
}

/** Events: requests from the face, the wallet's (already opened and checked) answers, deadlines. */
export type PhantomLinkEvent =
  | {
      type: 'CONNECT'
      flow: string
      deadline: number
      dappPublicKey: string
      dappSecretKey: string
    }
  | {
      type: 'SIGN'
      flow: string
      method: 'signMessage' | 'signAndSendTransaction'
      deadline: number
    }
  | {
      type: 'ANSWER.CONNECTED'
      flow: string
      nonce: string
      walletEncryptionKey: string
      session: string
      account: string
    }
  | { type: 'ANSWER.SIGNED'; flow: string; nonce: string; signature: string }
  | { type: 'ANSWER.FAILED'; flow: string; nonce: string | null; error: ErrorData }
  | { type: 'DEADLINE' }
  | { type: 'CANCEL' }
  | { type: 'DISCONNECT' }
