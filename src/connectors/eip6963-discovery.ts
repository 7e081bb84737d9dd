import { AppError } from '../errors'
import { isEip1193Provider } from './injected'
import type { Eip1193Provider } from './types'

/**
 * How long `findEip6963Provider` waits for a wallet to announce itself. An installed extension
 * answers `eip6963:requestProvider` synchronously, so the wait only matters when the wallet is
 * missing or its script is still loading; 500 ms keeps a "not installed" answer quick in the UI.
 */
export const DEFAULT_EIP6963_TIMEOUT_MS = 500

/** Metadata a wallet announces (EIP-6963). */
export interface Eip6963ProviderInfo {
  uuid: string
  name: string
  icon: string
  /** Reverse-DNS name, e.g. `io.metamask`. */
  rdns: string
}

/** The `detail` of an `eip6963:announceProvider` event. */
export interface Eip6963ProviderDetail {
  info: Eip6963ProviderInfo
  provider: Eip1193Provider
}

/*
 * One store per page: it starts listening on first use (never at import, for SSR) and keeps every
 * announcement, so wallets that announced before a lookup are found without waiting. It holds a
 * single window listener for the page's lifetime; lookups wait on `waiters`, not on the window.
 */
const announced = /* @__PURE__ */ new Map<string, Eip6963ProviderDetail>()
const waiters = /* @__PURE__ */ new Map<string, Set<(detail: Eip6963ProviderDetail) => void>>()
let listening = false

function onAnnounce(event: Event): void {
  const detail = (event as CustomEvent<unknown>).detail
  // A malformed announcement names no wallet to connect: ignored, unlogged (a logger here would
  // weigh 0.5 KB in the connect modal, which lists these announcements).
  if (!isProviderDetail(detail)) return
  announced.set(detail.info.rdns, detail)
  for (const waiter of [...(waiters.get(detail.info.rdns) ?? [])]) waiter(detail)
}

/** Starts the store on first use; false during server-side rendering. */
function startListening(): boolean {
  if (typeof window === 'undefined') return false
  if (!listening) {
    listening = true
    window.addEventListener('eip6963:announceProvider', onAnnounce)
    requestAnnouncements()
  }
  return true
}

function requestAnnouncements(): void {
  window.dispatchEvent(new Event('eip6963:requestProvider'))
}

/** Every wallet that has announced itself on this page so far (empty during SSR). */
export function listEip6963Providers(): Eip6963ProviderDetail[] {
  return startListening() ? [...announced.values()] : []
}

/** The provider `rdns` announced, if it has; synchronous, for `isAvailable()`. */
export function getAnnouncedEip6963Provider(rdns: string): Eip1193Provider | undefined {
  return startListening() ? announced.get(rdns)?.provider : undefined
}

/**
 * Finds the EIP-1193 provider of the wallet whose EIP-6963 reverse-DNS name is `rdns`: from an
 * announcement already seen, or by dispatching `eip6963:requestProvider` and waiting for the answer.
 *
 * @throws {AppError} `TIMEOUT` when no wallet with that `rdns` announces itself within `timeoutMs`;
 * `WALLET_UNAVAILABLE` at once when there is no `window` (server-side rendering).
 */
export function findEip6963Provider(
  rdns: string,
  timeoutMs: number = DEFAULT_EIP6963_TIMEOUT_MS,
): Promise<Eip1193Provider> {
  if (!startListening()) {
    return Promise.reject(
      new AppError('WALLET_UNAVAILABLE', 'EIP-6963 discovery needs a browser window.'),
    )
  }
  const known = announced.get(rdns)
  if (known) return Promise.resolve(known.provider)
  return new Promise((resolve, reject) => {
    const forRdns = waiters.get(rdns) ?? new Set()
    waiters.set(rdns, forRdns)
    const settle = (): void => {
      clearTimeout(timer)
      forRdns.delete(waiter)
      if (forRdns.size === 0) waiters.delete(rdns)
    }
    const waiter = (detail: Eip6963ProviderDetail): void => {
      settle()
      resolve(detail.provider)
    }
    const timer = setTimeout(() => {
      settle()
      reject(
        new AppError(
          'TIMEOUT',
          `No wallet announced rdns ${rdns} within ${timeoutMs} ms (EIP-6963).`,
        ),
      )
    }, timeoutMs)
    forRdns.add(waiter)
    // Wallets that announced before the store started answer this request again.
    requestAnnouncements()
  })
}

function isProviderDetail(value: unknown): value is Eip6963ProviderDetail {
  if (typeof value !== 'object' || value === null) return false
  const { info, provider } = value as { info?: { rdns?: unknown }; provider?: unknown }
  return typeof info?.rdns === 'string' && info.rdns !== '' && isEip1193Provider(provider)
}
