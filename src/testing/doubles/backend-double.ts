import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { buildSignedMessageEnvelope } from '../../wire/envelope'
import { API_PREFIX, APP_KEY_HEADER, SESSION_NONCE_HEADER } from '../../wire/routes'
import type { SessionResultResponse } from '../../wire/schemas'
import { BalancesRequestSchema } from '../../wire/schemas/balances'
import { type BackendFault, delay, never } from './answers'
import { TEST_PARTNER_WALLET } from './partner-wallet'

/** The app key the backend double accepts. */
export const TEST_APP_KEY = 'pk_test_kit'
/** The base URL the Client uses for the backend double (no socket: the double is its `fetchImpl`). */
export const TEST_BASE_URL = 'https://backend.test'

/**
 * The raw balance (18 decimals) the backend double answers for every account and token: beyond
 * 2^53, so it only fits a bigint (123 456.789… in units).
 */
export const TEST_BALANCE_RAW = '123456789012345678901234'

interface SessionRecord {
  sessionId: string
  nonce: string
  token: string
  caip2Chain: string
  walletSlug: string | null
  intent: string
  status: SessionResultResponse['status']
  walletAddress: string | null
  signature: string | null
  txSignature: string | null
  errorCode: string | null
  nonceUsed: boolean
  expiresAt: number
}

/**
 * A TEST DOUBLE of the backend as a `fetchImpl`, in process (no socket): the routes the Client and
 * the reference wallets use, answering in the documented wire shapes (src/wire/schemas) — config,
 * balances (GET one, POST a batch), transaction status, sessions and their result, the wallet callbacks (nonce-bound; a Solana signature is
 * verified with ed25519 over the session envelope), the relay token. `fault` turns every answer
 * into a failure: down (fetch rejects), 4xx / 5xx error bodies, 429 with Retry-After, a body that
 * is not JSON or not of the schema, a slow or hanging answer, a socket dropped mid-body.
 */
export interface BackendDouble {
  fetch: typeof fetch
  fault: BackendFault
  /** Every session token and signature it issued or recorded (secrets for the inspection check). */
  readonly secrets: Set<string>
  readonly requests: string[]
}

/** Ids, nonces and tokens from a counter and a hash: unguessable-looking, and the same on replay. */
const idFor = (label: string, n: number, bytes: number) =>
  bytesToHex(sha256(new TextEncoder().encode(`${label}:${n}`))).slice(0, bytes * 2)

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}
const error = (status: number, code: string, message: string, headers = {}) =>
  json(status, { error: { code, message } }, headers)
const noContent = () => new Response(null, { status: 204 })

/** A CAIP-2 chain id, as the real backend checks it. */
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/

/**
 * The balance the double answers for any account (GET /balances and each query of POST /balances):
 * `TEST_BALANCE_RAW` with 18 decimals, at block 19 000 000.
 */
function balanceOf(chainId: string, tokenAddress: string, account: string) {
  return {
    chainId,
    tokenAddress,
    account,
    raw: TEST_BALANCE_RAW,
    decimals: 18,
    blockNumber: '19000000',
  }
}

const FAULT_STATUS: Partial<Record<BackendFault, [number, string]>> = {
  status401: [401, 'INVALID_APP_KEY'],
  status403: [403, 'CHAIN_NOT_ENABLED'],
  status404: [404, 'SESSION_NOT_FOUND'],
  status422: [422, 'VALIDATION_FAILED'],
  status500: [500, 'INTERNAL_ERROR'],
  status503: [503, 'STORE_UNAVAILABLE'],
  status429: [429, 'RATE_LIMITED'],
}

/**
 * What the backend double answers in place of the route under `fault`: a rejection (`down`), a
 * promise that never settles (`hang`), an error status, a garbage or wrong-shaped body; null for
 * the faults that still reach the route (`ok`, `slow`, `drop`).
 */
export function faultAnswer(fault: BackendFault): Promise<Response> | null {
  if (fault === 'down')
    return Promise.reject(new TypeError('fetch failed (test double: backend down)'))
  if (fault === 'hang') return never<Response>()
  const failure = FAULT_STATUS[fault]
  if (failure) {
    const [status, code] = failure
    const headers: Record<string, string> = status === 429 ? { 'retry-after': '3' } : {}
    return Promise.resolve(error(status, code, 'test double fault', headers))
  }
  if (fault === 'garbage')
    return Promise.resolve(
      new Response('<html>502 Bad Gateway</html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      }),
    )
  if (fault === 'badShape') return Promise.resolve(json(200, { unexpected: true, raw: 12 }))
  return null
}

/** A TEST DOUBLE of the backend as a `fetchImpl` (see `BackendDouble`): set `fault` to make it fail. */
export function createBackendDouble(): BackendDouble {
  const sessions = new Map<string, SessionRecord>()
  const secrets = new Set<string>()
  const requests: string[] = []
  let sequence = 0

  const view = (r: SessionRecord): SessionResultResponse => {
    const open = r.status === 'pending' || r.status === 'connected'
    const status = open && Date.now() >= r.expiresAt ? 'expired' : r.status
    return {
      sessionId: r.sessionId,
      status,
      connected: status === 'connected' || status === 'signed',
      signed: status === 'signed',
      walletAddress: r.walletAddress,
      signature: r.signature,
      txSignature: r.txSignature,
      errorCode: r.errorCode,
      expiresAt: r.expiresAt,
    }
  }

  async function route(method: string, url: URL, headers: Headers, body: unknown) {
    const path = url.pathname.slice(API_PREFIX.length)
    const appKey = headers.get(APP_KEY_HEADER)
    const nonceBound = (sessionId: unknown) => {
      const record = sessions.get(String(sessionId))
      return record && record.nonce === headers.get(SESSION_NONCE_HEADER) ? record : undefined
    }
    const b = (body ?? {}) as Record<string, unknown>
    if (method === 'GET' && path === '/config') {
      if (appKey !== TEST_APP_KEY) return error(401, 'INVALID_APP_KEY', 'unknown app key')
      return json(200, {
        projectId: 'proj_faults',
        name: 'Faults',
        networks: [
          {
            networkId: 'eip155:1',
            namespace: 'eip155',
            name: 'Ethereum',
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            testnet: false,
          },
        ],
        wallets: [{ walletId: 'metamask', name: 'MetaMask', namespaces: ['eip155'] }],
        // As the real test backend: the test kit's partner wallet (the `sc*` / `scr` flows' wallet).
        partnerWallets: [TEST_PARTNER_WALLET],
      })
    }
    if (method === 'GET' && path === '/balances') {
      if (appKey !== TEST_APP_KEY) return error(401, 'INVALID_APP_KEY', 'unknown app key')
      return json(
        200,
        balanceOf(
          url.searchParams.get('chainId') ?? '',
          url.searchParams.get('tokenAddress') ?? 'native',
          url.searchParams.get('account') ?? '',
        ),
      )
    }
    if (method === 'POST' && path === '/balances') {
      // As the real route (server/src/routes/balances-batch.ts): 1..100 queries checked for shape
      // (else 422 for the batch), each answered in order, a query in a wrong format as its own error.
      if (appKey !== TEST_APP_KEY) return error(401, 'INVALID_APP_KEY', 'unknown app key')
      const parsed = BalancesRequestSchema.safeParse(body)
      if (!parsed.success) return error(422, 'VALIDATION_FAILED', 'queries is invalid')
      return json(200, {
        balances: parsed.data.queries.map(({ chainId, tokenAddress, account }) =>
          CAIP2.test(chainId) && account !== ''
            ? balanceOf(chainId, tokenAddress, account)
            : {
                chainId,
                tokenAddress,
                account,
                error: {
                  code: 'VALIDATION_FAILED',
                  message: CAIP2.test(chainId) ? 'account is invalid' : 'chainId is invalid',
                },
              },
        ),
      })
    }
    if (method === 'GET' && path === '/transactions') {
      if (appKey !== TEST_APP_KEY) return error(401, 'INVALID_APP_KEY', 'unknown app key')
      // Every transaction is mined in the head block at once (the double runs no chain).
      return json(200, {
        chainId: url.searchParams.get('chainId') ?? '',
        hash: url.searchParams.get('hash') ?? '',
        status: 'confirmed',
        blockNumber: '19000000',
        confirmations: 1,
      })
    }
    if (method === 'POST' && path === '/sessions') {
      if (appKey !== TEST_APP_KEY) return error(401, 'INVALID_APP_KEY', 'unknown app key')
      const record: SessionRecord = {
        sessionId: `sess_${++sequence}_${idFor('session', sequence, 12)}`,
        nonce: idFor('nonce', sequence, 16),
        token: `tok_${idFor('token', sequence, 24)}`,
        caip2Chain: String(b.caip2Chain),
        walletSlug: typeof b.walletSlug === 'string' ? b.walletSlug : null,
        intent: typeof b.intent === 'string' ? b.intent : 'connect',
        status: 'pending',
        walletAddress: null,
        signature: null,
        txSignature: null,
        errorCode: null,
        nonceUsed: false,
        expiresAt: Date.now() + 600_000,
      }
      sessions.set(record.sessionId, record)
      secrets.add(record.token)
      const { sessionId, nonce, token: sessionToken, expiresAt } = record
      return json(201, { sessionId, nonce, sessionToken, expiresAt })
    }
    const result = /^\/sessions\/([^/]+)\/result$/.exec(path)
    if (method === 'GET' && result) {
      const record = sessions.get(decodeURIComponent(result[1] ?? ''))
      if (!record || headers.get('authorization') !== `Bearer ${record.token}`)
        return error(404, 'SESSION_NOT_FOUND', 'no such session')
      return json(200, view(record))
    }
    if (method === 'POST' && path.startsWith('/callback/')) {
      const record = nonceBound(b.sessionId)
      if (!record) return error(404, 'SESSION_NOT_FOUND', 'no such session')
      if (Date.now() >= record.expiresAt) return error(410, 'SESSION_EXPIRED', 'expired')
      const conflict = () => error(409, 'SESSION_STATE_CONFLICT', `session is ${record.status}`)
      if (path === '/callback/connect') {
        if (record.status === 'connected' && record.walletAddress === b.walletAddress)
          return noContent()
        if (record.status !== 'pending') return conflict()
        record.status = 'connected'
        record.walletAddress = String(b.walletAddress)
        return noContent()
      }
      if (path === '/callback/sign') {
        if (record.status === 'signed' && record.signature === b.signature) return noContent()
        if (record.nonceUsed) return error(409, 'NONCE_USED', 'nonce used')
        if (record.status !== 'connected' || record.walletAddress === null) return conflict()
        const message = buildSignedMessageEnvelope(
          record.sessionId,
          record.nonce,
          record.walletAddress,
          Number(b.timestamp),
        )
        let valid = false
        try {
          valid = ed25519.verify(
            base58.decode(String(b.signature)),
            new TextEncoder().encode(message),
            base58.decode(record.walletAddress),
          )
        } catch {
          valid = false
        }
        if (!valid) return error(422, 'SIGNATURE_INVALID', 'the signature does not verify')
        record.status = 'signed'
        record.signature = String(b.signature)
        record.nonceUsed = true
        secrets.add(record.signature)
        return noContent()
      }
      if (path === '/callback/transaction') {
        if (record.intent !== 'transaction') return conflict()
        if (record.txSignature === b.txSignature) return noContent()
        if (record.txSignature !== null) return conflict()
        if (record.status !== 'connected' && record.status !== 'signed') return conflict()
        record.txSignature = String(b.txSignature)
        secrets.add(record.txSignature)
        return noContent()
      }
      if (path === '/callback/reject') {
        const status = b.errorCode === 'USER_REJECTED' ? 'rejected' : 'failed'
        if (record.status === status) return noContent()
        if (record.status !== 'pending' && record.status !== 'connected') return conflict()
        record.status = status
        record.errorCode = String(b.errorCode)
        return noContent()
      }
    }
    if (method === 'POST' && path === '/relay/token') {
      if (appKey !== TEST_APP_KEY) return error(401, 'INVALID_APP_KEY', 'unknown app key')
      const token = `relay_${idFor('relay', ++sequence, 24)}`
      secrets.add(token)
      return json(200, { token, expiresAt: Date.now() + 3_600_000 })
    }
    return error(404, 'NOT_FOUND', `no route ${method} ${path}`)
  }

  /** Honours the request's AbortSignal (ky's timeout aborts it), as fetch does. */
  const abortable = <T>(signal: AbortSignal | null | undefined, work: Promise<T>): Promise<T> =>
    signal
      ? new Promise<T>((resolve, reject) => {
          if (signal.aborted) return reject(signal.reason)
          signal.addEventListener('abort', () => reject(signal.reason), { once: true })
          work.then(resolve, reject)
        })
      : work

  const double: BackendDouble = {
    fault: 'ok',
    secrets,
    requests,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init)
      const url = new URL(request.url)
      requests.push(`${request.method} ${url.pathname}`)
      const fault = double.fault
      const text = request.method === 'GET' ? '' : await request.text()
      const work = (async () => {
        if (fault === 'slow') await delay(2_000)
        const failed = faultAnswer(fault)
        if (failed) return failed
        const answer = await route(
          request.method,
          url,
          request.headers,
          text ? JSON.parse(text) : undefined,
        )
        if (fault === 'drop') {
          // The socket drops after the headers: reading the body fails.
          const body = new ReadableStream({
            start(controller) {
              controller.error(new TypeError('terminated (test double: socket dropped)'))
            },
          })
          return new Response(body, { status: answer.status, headers: answer.headers })
        }
        return answer
      })()
      return abortable(request.signal, work)
    }) as typeof fetch,
  }
  return double
}
