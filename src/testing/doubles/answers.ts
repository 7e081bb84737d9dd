/**
 * How a scripted TEST DOUBLE answers. Wallets: approve, reject (4001), error (a non-4001 failure),
 * hang (never answers), change the account or the chain after answering, lock (no accounts, 4100),
 * garbage (answers `JUNK_WALLET_ANSWER` in place of the result: a broken or hostile wallet).
 * Backend and relay: ok, down, 4xx, 5xx, 429 with Retry-After, garbage body, wrong shape, slow,
 * hang, socket dropped mid-body.
 */
export const WALLET_ANSWERS = [
  'approve',
  'reject',
  'error',
  'hang',
  'changeAccount',
  'changeChain',
  'lock',
  'garbage',
] as const
/**
 * What a wallet double answers under `garbage`, whatever was asked: neither accounts, nor a
 * signature, nor a hash, nor a Wallet Standard result. The library must refuse it (`WALLET_ERROR`).
 */
export const JUNK_WALLET_ANSWER = '0xjunk-answer-of-a-broken-wallet'
/** How a wallet double answers a prompt (one of `WALLET_ANSWERS`). */
export type WalletAnswer = (typeof WALLET_ANSWERS)[number]

/** How the backend and relay doubles answer: `ok`, or a fault. */
export const BACKEND_FAULTS = [
  'ok',
  'down',
  'status401',
  'status403',
  'status404',
  'status422',
  'status500',
  'status503',
  'status429',
  'garbage',
  'badShape',
  'slow',
  'hang',
  'drop',
] as const
/** One of `BACKEND_FAULTS`. */
export type BackendFault = (typeof BACKEND_FAULTS)[number]

/** A promise that never settles (a wallet or server that never answers). */
export const never = <T>(): Promise<T> => new Promise<T>(() => {})

/** Resolves after `ms` (on whatever clock `setTimeout` runs on: fake timers too). */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
