// The chunk `client.signIn()` loads on first use (a dynamic import): the message builder, its
// checks and the two backend calls stay out of the `Client` entry.
import { AppError } from '../errors/app-error'
import { invalidArgument } from '../errors/arguments'
import { normalizeBaseUrl } from '../http/base-url'
import { createHttpClient, type FetchLike } from '../http/client'
import { parseParameters } from '../wire/parse-parameters'
import { APP_KEY_HEADER, ROUTES } from '../wire/routes'
import {
  SignInNonceResponseSchema,
  type SignInRecord,
  SignInRecordSchema,
} from '../wire/schemas/sign-in'
import { buildSignInMessage, type SignInMessage } from '../wire/sign-in-message'
import {
  type SignInCheckedParameters,
  type SignInParameters,
  SignInParametersSchema,
} from './parameters'

/** How long a message is good for when `expirationTime` is not given (ms). */
export const SIGN_IN_DEFAULT_TTL_MS = 600_000 // 10 minutes

const SIWS_CHAIN_NAMES: Readonly<Record<string, string>> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'testnet',
}

/** What the sign-in needs of the `Client`: its connection, its sign chart, its backend. */
export interface SignInHost {
  getConnection(): { namespace: string; chainId: string; accounts: readonly string[] } | null
  signMessage(message: string): Promise<string>
}

/** The backend options the sign-in reads (the `Client`'s). */
export interface SignInBackend {
  baseUrl: string
  appKey: string
  fetchImpl?: FetchLike | undefined
}

/** The page's host and origin, when there is a page. */
function pageLocation(): { host: string; origin: string } | undefined {
  const location = (globalThis as { location?: { host?: unknown; origin?: unknown } }).location
  if (typeof location?.host === 'string' && typeof location.origin === 'string')
    return { host: location.host, origin: location.origin }
  return undefined
}

/**
 * The sign-in message for `connection` with the backend's `nonce`, `parameters` already checked.
 * @throws `INVALID_CONFIG` when `domain` / `uri` are missing outside a page, or a field is wrong.
 */
export function signInMessageFor(
  connection: { namespace: string; chainId: string; accounts: readonly string[] },
  nonce: string,
  parameters: SignInCheckedParameters,
  now: number = Date.now(),
): SignInMessage {
  const page = pageLocation()
  const domain = parameters.domain ?? page?.host
  const uri = parameters.uri ?? page?.origin
  if (domain === undefined) throw invalidArgument('signIn: domain', 'is required outside a page')
  if (uri === undefined) throw invalidArgument('signIn: uri', 'is required outside a page')
  const chainId = parameters.chainId ?? connection.chainId
  const namespace = chainId.split(':')[0]
  if (namespace !== connection.namespace || (namespace !== 'eip155' && namespace !== 'solana'))
    throw new AppError('UNSUPPORTED_CHAIN', `signIn: ${chainId} is not the connection's family.`)
  const issuedAt = new Date(now).toISOString()
  const { chainId: _chain, domain: _domain, uri: _uri, ...rest } = parameters
  return {
    namespace,
    domain,
    uri,
    address: connection.accounts[0] ?? '',
    version: '1',
    chainId:
      namespace === 'eip155'
        ? Number(chainId.slice('eip155:'.length))
        : (SIWS_CHAIN_NAMES[chainId] ?? chainId),
    nonce,
    issuedAt,
    expirationTime: new Date(now + SIGN_IN_DEFAULT_TTL_MS).toISOString(),
    ...rest,
  }
}

/**
 * Sign-In with Ethereum (EIP-4361) or With Solana: checks `parameters` (nothing is sent when they
 * are wrong), asks the backend for a nonce, builds the message, has the wallet sign it through
 * the sign chart (`host.signMessage`) and has the backend verify it; answers the verified record.
 * @throws `INVALID_CONFIG`, `NOT_CONNECTED`, `UNSUPPORTED_CHAIN`, `BACKEND_ERROR` (the backend's
 * code in `backendCode`: `NONCE_USED`, `SIGNATURE_INVALID`, `VALIDATION_FAILED`…; or no backend),
 * and what `signMessage` throws (`USER_REJECTED`, `WALLET_ERROR`, `WALLET_BUSY`, `TIMEOUT`…).
 */
export async function signIn(
  host: SignInHost,
  backend: SignInBackend,
  parameters: SignInParameters | undefined,
): Promise<SignInRecord> {
  const checked = parseParameters(SignInParametersSchema, parameters ?? {}, 'signIn parameters')
  const connection = host.getConnection()
  if (!connection) throw new AppError('NOT_CONNECTED', 'signIn needs a connected wallet.')
  // The message's own checks too run before the nonce is asked for (a placeholder nonce).
  buildSignInMessage(signInMessageFor(connection, '00000000', checked))
  const http = createHttpClient({
    baseUrl: normalizeBaseUrl(backend.baseUrl),
    fetchImpl: backend.fetchImpl,
    errorCode: 'BACKEND_ERROR',
  })
  const headers = { [APP_KEY_HEADER]: backend.appKey }
  const { nonce } = await http.json(
    { method: 'POST', path: ROUTES.signInNonce, headers, what: 'POST /sign-in/nonce' },
    SignInNonceResponseSchema,
  )
  const message = buildSignInMessage(signInMessageFor(connection, nonce, checked))
  const signature = await host.signMessage(message)
  return http.json(
    {
      method: 'POST',
      path: ROUTES.signInVerify,
      headers,
      json: { message, signature },
      what: 'POST /sign-in/verify',
      secrets: [signature, nonce],
    },
    SignInRecordSchema,
  )
}
