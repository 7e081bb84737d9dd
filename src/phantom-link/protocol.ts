import type { AppErrorCode } from '../errors/app-error'

/** The methods of Phantom's deeplink protocol v1 this library speaks. */
export type PhantomLinkMethod = 'connect' | 'signMessage' | 'signAndSendTransaction' | 'disconnect'

/**
 * The parameter the library adds to `redirect_link`: the id of the request the answer belongs to
 * (the wallet appends its own parameters and keeps ours), so an answer to another flow is refused.
 */
export const PHANTOM_LINK_FLOW_PARAM = 'scPhantomFlow'

/** Phantom's `cluster` for a Solana CAIP-2 chain id: devnet and testnet by genesis hash, else mainnet. */
export function phantomCluster(chainId: string): 'mainnet-beta' | 'devnet' | 'testnet' {
  if (chainId === 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1') return 'devnet'
  if (chainId === 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z') return 'testnet'
  return 'mainnet-beta'
}

/** `{baseUrl}{method}?{params}`, e.g. `https://phantom.app/ul/v1/connect?app_url=…`. */
export function buildPhantomLinkUrl(
  baseUrl: string,
  method: PhantomLinkMethod,
  params: Readonly<Record<string, string>>,
): string {
  return `${baseUrl}${method}?${new URLSearchParams(params).toString()}`
}

/** `redirectLink` with the flow parameter set to `flow` (any earlier answer's parameters dropped). */
export function redirectLinkFor(redirectLink: string, flow: string): string {
  const url = new URL(redirectLink)
  for (const name of ANSWER_PARAMS) url.searchParams.delete(name)
  url.searchParams.set(PHANTOM_LINK_FLOW_PARAM, flow)
  return url.toString()
}

/** The parameters a wallet's answer adds to the redirect link (and ours). */
const ANSWER_PARAMS = [
  PHANTOM_LINK_FLOW_PARAM,
  'phantom_encryption_public_key',
  'nonce',
  'data',
  'errorCode',
  'errorMessage',
] as const

/** A redirect back from the wallet, read off its URL; secrets stay encrypted in `data`. */
export type PhantomAnswer =
  | { kind: 'error'; flow: string | null; errorCode: string; errorMessage: string }
  | {
      kind: 'data'
      flow: string | null
      /** Only on `connect`'s answer. */
      walletEncryptionKey: string | null
      nonce: string
      data: string
    }
  /** The wallet came back without data (its `disconnect` answers so). */
  | { kind: 'empty'; flow: string }

/**
 * Reads a wallet's answer off a redirect URL; null when the URL carries none (not ours). Never
 * throws, whatever it is given.
 */
export function readPhantomAnswer(href: string): PhantomAnswer | null {
  let params: URLSearchParams
  try {
    params = new URL(href).searchParams
  } catch {
    return null
  }
  const flow = params.get(PHANTOM_LINK_FLOW_PARAM)
  const errorCode = params.get('errorCode')
  if (errorCode !== null)
    return { kind: 'error', flow, errorCode, errorMessage: params.get('errorMessage') ?? '' }
  const nonce = params.get('nonce')
  const data = params.get('data')
  if (nonce !== null && data !== null) {
    const walletEncryptionKey = params.get('phantom_encryption_public_key')
    return { kind: 'data', flow, walletEncryptionKey, nonce, data }
  }
  return flow === null ? null : { kind: 'empty', flow }
}

/** `href` without the answer's parameters: what a page shows once the answer was read. */
export function withoutPhantomAnswer(href: string): string {
  try {
    const url = new URL(href)
    for (const name of ANSWER_PARAMS) url.searchParams.delete(name)
    return url.toString()
  } catch {
    return href
  }
}

/**
 * The library code for a wallet's `errorCode` (Phantom's provider errors): 4001 (user rejected)
 * → `USER_REJECTED`; 4100 (unauthorized) and 4900 (disconnected) → `NOT_CONNECTED` (the session is
 * gone; connect again); anything else (-32000 invalid input, -32002, -32003 transaction rejected,
 * -32601 method not found, -32603 internal error) → `WALLET_ERROR`.
 */
export function phantomErrorCode(errorCode: string): AppErrorCode {
  if (errorCode === '4001') return 'USER_REJECTED'
  if (errorCode === '4100' || errorCode === '4900') return 'NOT_CONNECTED'
  return 'WALLET_ERROR'
}
