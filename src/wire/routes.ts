/** Every backend route lives under this prefix. */
export const API_PREFIX = '/api/v1/connect'

/** Paths relative to `API_PREFIX`. */
export const ROUTES = {
  balances: '/balances',
  config: '/config',
  sessions: '/sessions',
  sessionResult: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/result`,
  sessionVerify: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/verify`,
  callbackConnect: '/callback/connect',
  callbackSign: '/callback/sign',
  callbackTransaction: '/callback/transaction',
  callbackReject: '/callback/reject',
  relayToken: '/relay/token',
  relay: '/relay',
} as const

export const APP_KEY_HEADER = 'x-app-key'
