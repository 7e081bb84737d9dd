/** What the page talks to: set by the server that serves it (`serve.ts`), or on the page URL. */
export interface DappConfig {
  /** The backend base URL. */
  baseUrl: string
  appKey: string
  /** The wallet simulator page, standing in for the wallet app of the universal link; or null. */
  walletUrl: string | null
  /** The phone version: `?mobile=1`, or a phone's user agent. */
  mobile: boolean
}

/** The page's config: the server's JSON config element, overridden by `?backend=…&appKey=…`. */
export function readConfig(): DappConfig {
  const element = document.getElementById('config')
  const served = JSON.parse(element?.textContent ?? '{}') as {
    backend?: string
    appKey?: string
    walletUrl?: string | null
  }
  const query = new URLSearchParams(location.search)
  return {
    baseUrl: query.get('backend') ?? served.backend ?? 'http://127.0.0.1:8787',
    appKey: query.get('appKey') ?? served.appKey ?? 'sample-app-key',
    walletUrl: served.walletUrl ?? null,
    mobile:
      query.get('mobile') === '1' || /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent),
  }
}

/** The element with `id`. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.getElementById(id) as T
