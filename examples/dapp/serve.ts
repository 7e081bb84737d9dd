/**
 * Serves the example dApp page by hand: `npm run example:dapp` (or `npx tsx examples/dapp/serve.ts
 * [--port 5173]`), then open the printed URL in a browser with a wallet extension (MetaMask,
 * Rabby…). The page's script is bundled with esbuild on every load, with `scope-connect` resolved
 * to the library sources, so an edit shows on reload. The page talks to the backend of
 * `npm start` (http://127.0.0.1:8787, app key `sample-app-key`); `?backend=…&appKey=…` on the
 * page URL points it elsewhere.
 */
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const ALIAS = {
  'scope-connect/client': here('../../src/client/index.ts'),
  'scope-connect/connectors': here('../../src/connectors/index.ts'),
  'scope-connect/wire': here('../../src/wire/index.ts'),
  'scope-connect/machines': here('../../machines/index.ts'),
  'scope-connect': here('../../src/index.ts'),
}

/** The page's script, bundled for the browser. */
export async function bundleDappScript(): Promise<string> {
  const result = await build({
    entryPoints: [here('./src/main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    alias: ALIAS,
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

/** Serves `/` (index.html) and `/main.js` on 127.0.0.1:`port` (0: a free port). */
export async function serveDapp(port: number): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    try {
      if (path === '/' || path === '/index.html') {
        const html = await readFile(here('./index.html'), 'utf8')
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
      } else if (path === '/main.js') {
        const script = await bundleDappScript()
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      }
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '5173' } } })
  const { url } = await serveDapp(Number(values.port))
  console.log(`example dApp on ${url} (backend: http://127.0.0.1:8787 from npm start)`)
}
