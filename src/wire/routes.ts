/** Every backend route lives under this prefix. */
export const API_PREFIX = '/api/v1/connect'

/**
 * GET and POST `/balances`, named alone: a bundler keeps `ROUTES` whole, and the balance reader
 * needs only this one.
 */
export const BALANCES_ROUTE = '/balances'

/** Paths relative to `API_PREFIX`. */
export const ROUTES = {
  balances: BALANCES_ROUTE,
  config: '/config',
  sessions: '/sessions',
  sessionResult: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/result`,
  sessionVerify: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/verify`,
  callbackConnect: '/callback/connect',
  callbackSign: '/callback/sign',
  callbackTransaction: '/callback/transaction',
  callbackReject: '/callback/reject',
  transactions: '/transactions',
  relayToken: '/relay/token',
  relay: '/relay',
  signInNonce: '/sign-in/nonce',
  signInVerify: '/sign-in/verify',
} as const

/** The header that carries the public app key (`X-App-Key`). */
export const APP_KEY_HEADER = 'x-app-key'

/**
 * Wallet callbacks carry the session's nonce in this header: only the wallet's universal link
 * (`scNonce`) holds it, so a session id seen in a log or a URL is not enough to change a session.
 * Missing or wrong, the backend answers exactly as for an unknown session (404 `SESSION_NOT_FOUND`).
 */
export const SESSION_NONCE_HEADER = 'x-session-nonce'

/**
 * Every result answer names, in this header, the longest `waitMs` the backend holds a long-poll
 * (`GET /sessions/{id}/result?waitMs=…` with `If-None-Match`); its absence means no long-poll.
 */
export const LONG_POLL_MAX_HEADER = 'x-long-poll-max-ms'

/** The longest long-poll wait the backend offers, in ms. */
export const LONG_POLL_MAX_MS = 25_000
