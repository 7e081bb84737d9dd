import {
  API_PREFIX,
  APP_KEY_HEADER,
  BACKEND_ERROR_STATUS,
  BALANCES_BATCH_MAX,
  BalanceQuerySchema,
  BalanceResponseSchema,
  BalancesQueryItemSchema,
  BalancesRequestSchema,
  BalancesResponseSchema,
  ConfigResponseSchema,
  ConnectCallbackSchema,
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  DecimalsSchema,
  ErrorBodySchema,
  LONG_POLL_MAX_HEADER,
  LONG_POLL_MAX_MS,
  RELAY_CLOSE_CODES,
  RELAY_ERROR_CODES,
  RELAY_METHODS,
  RejectCallbackSchema,
  RelayTokenResponseSchema,
  ROUTES,
  SESSION_NONCE_HEADER,
  SessionIdSchema,
  SessionResultResponseSchema,
  SessionResultSchema,
  SignCallbackSchema,
  SignInNonceResponseSchema,
  SignInRecordSchema,
  SignInVerifyRequestSchema,
  TransactionCallbackSchema,
  TransactionQuerySchema,
  TransactionStatusResponseSchema,
  VerifyRequestSchema,
} from 'scope-connect/wire'
import * as z from 'zod/mini'

type Json = Record<string, unknown>

/** The JSON Schema at `path` (property names) under `schema`. */
function at(schema: Json, ...path: string[]): Json {
  return path.reduce((node, key) => (node.properties as Record<string, Json>)[key] as Json, schema)
}

/**
 * What zod cannot read from some wire schemas: the library checks these bounds with plain
 * `z.check`s, cheaper in its bundle than zod's own checks (issue 30 item 7), so the document says
 * them here, as `z.int()`, `z.gte`, `z.lte`, `z.maxLength` and `z.minLength` said them.
 */
const BOUNDS = new Map<unknown, (schema: Json) => void>([
  [
    DecimalsSchema,
    (schema) => Object.assign(schema, { type: 'integer', minimum: 0, maximum: 255 }),
  ],
  [
    BalancesQueryItemSchema,
    (schema) => {
      at(schema, 'chainId').maxLength = 64
      at(schema, 'tokenAddress').maxLength = 128
      at(schema, 'account').maxLength = 128
    },
  ],
  [ErrorBodySchema, (schema) => Object.assign(at(schema, 'error', 'details'), { minItems: 1 })],
])

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) from a wire schema, without the per-schema `$schema`. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    override: ({ zodSchema, jsonSchema }) => BOUNDS.get(zodSchema)?.(jsonSchema as Json),
  }) as Json
  return rest
}

const COMPONENTS = {
  ErrorBody: ErrorBodySchema,
  BalanceResponse: BalanceResponseSchema,
  BalancesRequest: BalancesRequestSchema,
  BalancesResponse: BalancesResponseSchema,
  ConfigResponse: ConfigResponseSchema,
  CreateSessionRequest: CreateSessionRequestSchema,
  CreateSessionResponse: CreateSessionResponseSchema,
  SessionResult: SessionResultSchema,
  SessionResultResponse: SessionResultResponseSchema,
  VerifyRequest: VerifyRequestSchema,
  ConnectCallback: ConnectCallbackSchema,
  SignCallback: SignCallbackSchema,
  TransactionCallback: TransactionCallbackSchema,
  RejectCallback: RejectCallbackSchema,
  RelayTokenResponse: RelayTokenResponseSchema,
  TransactionStatusResponse: TransactionStatusResponseSchema,
  SignInNonceResponse: SignInNonceResponseSchema,
  SignInVerifyRequest: SignInVerifyRequestSchema,
  SignInRecord: SignInRecordSchema,
} as const
type ComponentName = keyof typeof COMPONENTS

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` })
const json = (name: ComponentName) => ({ content: { 'application/json': { schema: ref(name) } } })

/**
 * Error responses by status, each with the codes it may carry. Every route may also answer 400
 * (a malformed request, two Host headers), 408 and 431 (Node's parser refusals), 413, 415, 429.
 */
function errors(...statuses: number[]): Json {
  const out: Json = {}
  for (const status of [...new Set([...statuses, 400, 408, 413, 415, 429, 431, 500])].sort()) {
    const codes = Object.entries(BACKEND_ERROR_STATUS)
      .filter(([, s]) => s === status)
      .map(([code]) => code)
    out[String(status)] = { description: codes.join(' | '), ...json('ErrorBody') }
  }
  return out
}

/** `/balances` (GET and POST): a balance moves with every block. */
const balancesCacheHeaders = {
  'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
}

const rateLimitHeaders = {
  RateLimit: { schema: { type: 'string' }, description: 'draft-ietf-httpapi-ratelimit-headers' },
  'RateLimit-Policy': { schema: { type: 'string' } },
}

const sessionIdParam = {
  name: 'sessionId',
  in: 'path',
  required: true,
  schema: jsonSchema(SessionIdSchema),
}

function queryParameters(query: z.ZodMiniType = BalanceQuerySchema): Json[] {
  const schema = jsonSchema(query, 'input') as {
    properties: Record<string, Json>
    required?: string[]
  }
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }))
}

const appKey = [{ appKey: [] }]
const bearer = [{ sessionToken: [] }]

/** The wallet's proof on every callback: the session's nonce, from the link's `scNonce`. */
const sessionNonceHeader = {
  name: SESSION_NONCE_HEADER,
  in: 'header',
  required: true,
  description:
    "The session's nonce (the universal link's scNonce). Missing or wrong: 404 SESSION_NOT_FOUND, as for an unknown session.",
  schema: { type: 'string' },
}

/** The long-poll of the result route (docs/backend.md, "Long-poll"). */
const longPollParameters = [
  {
    name: 'waitMs',
    in: 'query',
    required: false,
    description: `With If-None-Match naming the current ETag: wait up to this long for a change (0..${LONG_POLL_MAX_MS}).`,
    schema: { type: 'integer', minimum: 0, maximum: LONG_POLL_MAX_MS },
  },
  {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag of the result the client holds.',
    schema: { type: 'string' },
  },
]

const resultHeaders = {
  ETag: { schema: { type: 'string' }, description: "The session's version and status" },
  [LONG_POLL_MAX_HEADER]: {
    schema: { type: 'integer' },
    description: 'The longest waitMs this backend holds a long-poll',
  },
}

function callback(summary: string, body: ComponentName): Json {
  return {
    post: {
      summary,
      description: 'Idempotent: the same body again answers 204 again.',
      security: [],
      parameters: [sessionNonceHeader],
      requestBody: { required: true, ...json(body) },
      responses: { '204': { description: 'recorded' }, ...errors(404, 409, 410, 422) },
    },
  }
}

/** OpenAPI cannot model a WebSocket; the protocol's names and codes are listed in prose. */
function relayDescription(): string {
  const list = (record: Record<string, string | number>) =>
    Object.entries(record)
      .map(([name, value]) => `${value} ${name}`)
      .join(', ')
  return [
    'See docs/relay.md.',
    `Methods: ${Object.values(RELAY_METHODS).join(', ')} (scr_subscription is the server's push; answer it with true).`,
    `JSON-RPC error codes: ${list(RELAY_ERROR_CODES)}.`,
    `Close codes: ${list(RELAY_CLOSE_CODES)}.`,
  ].join(' ')
}

/** OpenAPI 3.1, built from the same wire schemas that the routes parse with. */
export function buildOpenApiDocument(): Json {
  const p = (path: string) => API_PREFIX + path
  return {
    openapi: '3.1.0',
    info: {
      title: 'scope-connect backend',
      version: '0.1.0',
      description:
        "Every answer carries X-Content-Type-Options: nosniff; every refusal, including the HTTP parser's own 400, 408 and 431, has the ErrorBody shape.",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    components: {
      schemas: Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, schema]) => [
          name,
          jsonSchema(
            schema,
            name.endsWith('Request') || name.endsWith('Callback') ? 'input' : 'output',
          ),
        ]),
      ),
      securitySchemes: {
        appKey: { type: 'apiKey', in: 'header', name: APP_KEY_HEADER },
        sessionToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'sessionToken from POST /sessions',
        },
      },
    },
    paths: {
      [p(ROUTES.balances)]: {
        get: {
          summary: 'Token or native balance of an account',
          security: appKey,
          parameters: queryParameters(),
          responses: {
            '200': {
              description: 'balance',
              headers: { ...rateLimitHeaders, ...balancesCacheHeaders },
              ...json('BalanceResponse'),
            },
            ...errors(401, 403, 422, 502),
          },
        },
        post: {
          summary: `Up to ${BALANCES_BATCH_MAX} balances of any chains in one request`,
          description: [
            'Answered in query order: each entry is the GET answer, or { chainId, tokenAddress,',
            'account, error: { code, message } } with the code and message GET would answer for that',
            'query (VALIDATION_FAILED, CHAIN_NOT_ENABLED, UNSUPPORTED_CHAIN, UPSTREAM_ERROR); a bad',
            'query never fails the batch. EVM queries of one chain are read through Multicall3',
            'aggregate3 at one pinned block, Solana ones through getMultipleAccounts and',
            'getTokenAccountsByOwner. Rate limited as one request plus one per 10 queries.',
          ].join(' '),
          security: appKey,
          requestBody: { required: true, ...json('BalancesRequest') },
          responses: {
            '200': {
              description: 'one entry per query, in query order',
              headers: { ...rateLimitHeaders, ...balancesCacheHeaders },
              ...json('BalancesResponse'),
            },
            ...errors(401, 403, 422),
          },
        },
      },
      [p(ROUTES.transactions)]: {
        get: {
          summary:
            'Status of a transaction read by the backend; a long-poll with waitMs and If-None-Match, woken by new blocks',
          description:
            'unknown + replacedBy: another transaction of the same sender and nonce was mined. Limited per app key like /balances, once per request whatever the wait. The long-polls open at once are capped per caller (app key and IP) and per instance: past the cap, 429 TOO_MANY_WAITERS (Retry-After: 1).',
          security: appKey,
          parameters: [...queryParameters(TransactionQuerySchema), ...longPollParameters],
          responses: {
            '200': {
              description: 'status',
              headers: {
                ...rateLimitHeaders,
                ETag: { schema: { type: 'string' }, description: 'A hash of the answer' },
                [LONG_POLL_MAX_HEADER]: resultHeaders[LONG_POLL_MAX_HEADER],
              },
              ...json('TransactionStatusResponse'),
            },
            '304': { description: 'unchanged: the status still matches If-None-Match' },
            ...errors(401, 403, 422, 502),
          },
        },
      },
      [p(ROUTES.config)]: {
        get: {
          summary: "The project's enabled networks and wallets",
          security: appKey,
          responses: {
            '200': {
              description: 'config',
              headers: {
                ...rateLimitHeaders,
                'Cache-Control': { schema: { type: 'string', const: 'public, max-age=60' } },
                Vary: { schema: { type: 'string', const: 'Origin, X-App-Key' } },
              },
              ...json('ConfigResponse'),
            },
            ...errors(401, 403),
          },
        },
      },
      [p(ROUTES.sessions)]: {
        post: {
          summary: 'Create a wallet session',
          security: appKey,
          requestBody: { required: true, ...json('CreateSessionRequest') },
          responses: {
            '201': { description: 'created', ...json('CreateSessionResponse') },
            ...errors(401, 403, 422, 503),
          },
        },
      },
      [p('/sessions/{sessionId}/result')]: {
        get: {
          summary: 'Current result of a session; a long-poll with waitMs and If-None-Match',
          security: bearer,
          parameters: [sessionIdParam, ...longPollParameters],
          responses: {
            '200': {
              description: 'result',
              headers: { ...rateLimitHeaders, ...resultHeaders },
              ...json('SessionResultResponse'),
            },
            '304': {
              description: 'unchanged: the session still matches If-None-Match',
              headers: { ...rateLimitHeaders, ...resultHeaders },
            },
            ...errors(403, 404, 422, 503),
          },
        },
      },
      [p('/sessions/{sessionId}/verify')]: {
        post: {
          summary: 'Verify a signature over the session envelope (dApp-driven, e.g. personal_sign)',
          security: bearer,
          parameters: [sessionIdParam],
          requestBody: { required: true, ...json('VerifyRequest') },
          responses: {
            '200': { description: 'signed', ...json('SessionResult') },
            ...errors(403, 404, 409, 410, 422, 502, 503),
          },
        },
      },
      [p(ROUTES.callbackConnect)]: callback(
        'Wallet reports the connected account',
        'ConnectCallback',
      ),
      [p(ROUTES.callbackSign)]: callback('Wallet reports the signed envelope', 'SignCallback'),
      [p(ROUTES.callbackTransaction)]: callback(
        'Wallet reports a transaction',
        'TransactionCallback',
      ),
      [p(ROUTES.callbackReject)]: callback(
        'Wallet reports a rejection or failure',
        'RejectCallback',
      ),
      [p(ROUTES.signInNonce)]: {
        post: {
          summary: 'A single-use Sign-In nonce (EIP-4361 / Sign-In With Solana)',
          description:
            'No body. The nonce is kept in the store (memory or Redis) for 10 minutes and is good for one POST /sign-in/verify. Limited per app key like /config.',
          security: appKey,
          responses: {
            '201': {
              description: 'nonce',
              headers: rateLimitHeaders,
              ...json('SignInNonceResponse'),
            },
            ...errors(401, 403, 503),
          },
        },
      },
      [p(ROUTES.signInVerify)]: {
        post: {
          summary: 'Verifies a signed Sign-In message and answers the verified record',
          description:
            'The message is an EIP-4361 or Sign-In With Solana text. Checked in order: its form (422 VALIDATION_FAILED naming the field), domain (the request Origin, else the project allowedOrigins) and URI, chain (403 CHAIN_NOT_ENABLED, 422 UNSUPPORTED_CHAIN), issued-at, expiration-time and not-before (422 VALIDATION_FAILED), the nonce, spent at once (409 NONCE_USED: unknown, expired or used), then the signature (422 SIGNATURE_INVALID): EIP-191 recovered locally, else ERC-1271 or ERC-6492 by one eth_call through the chain RPC; ed25519 on Solana.',
          security: appKey,
          requestBody: { required: true, ...json('SignInVerifyRequest') },
          responses: {
            '200': { description: 'verified', headers: rateLimitHeaders, ...json('SignInRecord') },
            ...errors(401, 403, 409, 422, 503),
          },
        },
      },
      [p(ROUTES.relayToken)]: {
        post: {
          summary: 'A relay token grant: an EdDSA (Ed25519) JWT for the relay WebSocket',
          description:
            'No body. `expiresAt` is ms epoch (default lifetime 1 h). Limited per app key like /config.',
          security: appKey,
          responses: {
            '200': {
              description: 'grant',
              headers: rateLimitHeaders,
              ...json('RelayTokenResponse'),
            },
            ...errors(401, 403),
          },
        },
      },
      [p(ROUTES.relay)]: {
        get: {
          summary: 'The relay: a WebSocket speaking the "scr" protocol (JSON-RPC 2.0 text frames)',
          description: relayDescription(),
          security: [],
          parameters: [
            {
              name: 'token',
              in: 'query',
              required: true,
              description: 'the token of a POST /relay/token grant',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '101': { description: 'switching protocols: the relay session' },
            '401': {
              description:
                "INVALID_RELAY_TOKEN (missing, malformed, forged, expired, another relay's)",
              ...json('ErrorBody'),
            },
            '426': { description: 'UPGRADE_REQUIRED (a plain GET)', ...json('ErrorBody') },
            '429': {
              description: 'RATE_LIMITED (too many open relay sockets from this IP)',
              ...json('ErrorBody'),
            },
          },
        },
      },
      [p('/openapi.json')]: {
        get: {
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1' } },
        },
      },
      '/healthz': {
        get: {
          summary: 'Liveness: { status: "ok" | "degraded" }',
          description:
            "The status only. The details (rate limiter, connection cap, store, relay) go to a request with Authorization: Bearer <metrics token>, and are served on the metrics listener's own /healthz.",
          security: [],
          responses: {
            '200': {
              description: 'alive',
              headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { status: { enum: ['ok', 'degraded'] } },
                    required: ['status'],
                  },
                },
              },
            },
          },
        },
      },
      '/readyz': {
        get: {
          summary: 'Readiness (store reachable)',
          security: [],
          responses: { '200': { description: 'ready' }, ...errors(503) },
        },
      },
    },
  }
}
