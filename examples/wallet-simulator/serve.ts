/**
 * Serves the wallet simulator page (`npm run demo` starts it beside the dApp page): it answers the
 * universal link it is opened with and pairs over the relay from a pasted URI. The page's script is
 * bundled with esbuild when the server starts, with `scope-connect` resolved to the library sources.
 *
 *   npx tsx examples/wallet-simulator/serve.ts [--port 5174] [--app-key sample-app-key]
 */
import { readFile, stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const ALIAS = {
  'scope-connect/client': here('../../src/client/index.ts'),
  'scope-connect/connectors': here('../../src/connectors/index.ts'),
  'scope-connect/wire': here('../../src/wire/index.ts'),
  'scope-connect/machines': here('../../machines/index.ts'),
  'scope-connect/internal': here('../../src/internal/index.ts'),
  'scope-connect/wallet': here('../../src/wallet/index.ts'),
  'scope-connect/qr': here('../../src/qr/index.ts'),
  'scope-connect/react': here('../../src/react/index.ts'),
  'scope-connect/ui': here('../../src/ui/index.ts'),
  'scope-connect': here('../../src/index.ts'),
}

/** The bundles made in this process, by entry, with the modification time of each input file. */
const bundles = new Map<string, { text: string; inputs: Array<[path: string, mtimeMs: number]> }>()

/** Each file's modification time (NaN when it is gone). */
const modificationTimes = (paths: string[]) =>
  Promise.all(
    paths.map(
      async (path): Promise<[string, number]> => [
        path,
        await stat(path).then(
          (file) => file.mtimeMs,
          () => Number.NaN,
        ),
      ],
    ),
  )

/**
 * Bundles a browser entry of the examples (ESM, `scope-connect` from the sources). A process that
 * serves the pages again (the browser tests, file after file in one worker) gets the bundle it
 * made before while none of its input files changed.
 */
export async function bundleBrowserScript(entry: string): Promise<string> {
  const made = bundles.get(entry)
  if (made) {
    const now = await modificationTimes(made.inputs.map(([path]) => path))
    if (now.every(([, mtimeMs], i) => mtimeMs === made.inputs[i]?.[1])) return made.text
  }
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    alias: ALIAS,
    logLevel: 'silent',
    metafile: true,
  })
  const text = result.outputFiles[0]?.text ?? ''
  const inputs = Object.keys(result.metafile.inputs).map((path) => resolve(path))
  bundles.set(entry, { text, inputs: await modificationTimes(inputs) })
  return text
}

/** Options of `serveWalletPage`. */
export interface WalletPageOptions {
  /** The app key the wallet fetches relay tokens with (default `sample-app-key`). */
  appKey?: string
}

/** Puts the page's settings into the HTML (JSON, safe inside a script element). */
export function withConfig(html: string, config: object): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c')
  return html.replace(
    '<!--config-->',
    `<script type="application/json" id="config">${json}</script>`,
  )
}

/**
 * Serves `/` (the page, whatever the query: the universal link's `sc*` parameters ride on it) and
 * `/page.js` on 127.0.0.1:`port` (0: a free port). Bundles the script first; rejects if it does
 * not build.
 */
export async function serveWalletPage(
  port: number,
  options: WalletPageOptions = {},
): Promise<{ url: string; server: Server }> {
  const script = await bundleBrowserScript(here('./src/page.ts'))
  const html = withConfig(await readFile(here('./page/index.html'), 'utf8'), {
    appKey: options.appKey ?? 'sample-app-key',
  })
  return servePage(port, html, new Map([['/page.js', script]]))
}

/**
 * Serves an example page on 127.0.0.1:`port` (0: a free port): `html` at `/` (whatever the query)
 * and each bundled script at its path; anything else is 404.
 */
export async function servePage(
  port: number,
  html: string,
  scripts: ReadonlyMap<string, string>,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const script = scripts.get(path)
    if (path === '/' || path === '/index.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    } else if (script !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '5174' },
      'app-key': { type: 'string', default: 'sample-app-key' },
    },
  })
  const { url } = await serveWalletPage(Number(values.port), { appKey: values['app-key'] })
  console.log(`wallet simulator page on ${url}`)
}
