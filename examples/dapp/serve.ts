/**
 * Serves the example dApp page: `npm run example:dapp` (or `npx tsx examples/dapp/serve.ts
 * [--port 5173]`), then open the printed URL in a browser with a wallet extension (MetaMask,
 * Rabby…). `npm run demo` serves it too, with the wallet simulator beside it. The page's script is
 * bundled with esbuild when the server starts, with `scope-connect` resolved to the library
 * sources. The page talks to the backend of `npm start` (http://127.0.0.1:8787, app key
 * `sample-app-key`) unless told otherwise (options, or `?backend=…&appKey=…` on the page URL).
 */
import { readFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { bundleBrowserScript, servePage, withConfig } from '../wallet-simulator/serve'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** Options of `serveDapp`: what the page is told, and whether it gets the simulator's key wallet. */
export interface DappPageOptions {
  /** The backend base URL (default `http://127.0.0.1:8787`). */
  backend?: string
  /** The project's app key (default `sample-app-key`). */
  appKey?: string
  /**
   * The wallet simulator page: when set, the universal-link flow opens it instead of the wallet's
   * real universal link (the demo's stand-in for a wallet app on a phone).
   */
  walletUrl?: string
  /**
   * Put the wallet simulator's injected EIP-1193 wallet (anvil's first dev account, announced by
   * EIP-6963) into the page, as a browser extension would be. Default false.
   */
  injectTestWallet?: boolean
}

/** The page's script, bundled for the browser. */
export function bundleDappScript(): Promise<string> {
  return bundleBrowserScript(here('./src/main.ts'))
}

/**
 * Serves `/` (index.html, with the options as its config), `/main.js` and, with
 * `injectTestWallet`, `/test-wallet.js` on 127.0.0.1:`port` (0: a free port). Bundles the scripts
 * first; rejects if they do not build or the port is taken.
 */
export async function serveDapp(
  port: number,
  options: DappPageOptions = {},
): Promise<{ url: string; server: Server }> {
  const scripts = new Map([['/main.js', await bundleDappScript()]])
  let html = await readFile(here('./index.html'), 'utf8')
  if (options.injectTestWallet) {
    scripts.set(
      '/test-wallet.js',
      await bundleBrowserScript(here('../wallet-simulator/src/injected-entry.ts')),
    )
    // Before the page's own script: modules run in document order.
    html = html.replace(
      '<script type="module" src="./main.js">',
      '<script type="module" src="./test-wallet.js"></script>\n    <script type="module" src="./main.js">',
    )
  }
  html = withConfig(html, {
    backend: options.backend ?? 'http://127.0.0.1:8787',
    appKey: options.appKey ?? 'sample-app-key',
    walletUrl: options.walletUrl ?? null,
  })
  return servePage(port, html, scripts)
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '5173' } } })
  const { url } = await serveDapp(Number(values.port))
  console.log(`example dApp on ${url} (backend: http://127.0.0.1:8787 from npm start)`)
}
