import { builtinEnvironments, type Environment } from 'vitest/runtime'

/**
 * The globals vitest's happy-dom environment also replaces beyond the DOM: the network and URL
 * classes. Node's own are kept, because the parts a test runs in the same process (anvil through
 * viem, the real server, `fileURLToPath(new URL(…))`) need them; a browser test against the real
 * server would otherwise meet happy-dom's CORS-checked fetch and its foreign `AbortSignal`.
 */
const NODE_GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'AbortController',
  'AbortSignal',
  'URL',
  'URLSearchParams',
  'MessagePort',
] as const

const happyDom = builtinEnvironments['happy-dom']

/**
 * vitest's happy-dom environment (window, document, the DOM classes) with Node's network globals
 * and modules transformed as for Node (`ssr`: `new URL(path, import.meta.url)` stays a file URL).
 * Use: `// @vitest-environment happy-dom-node` (aliased to this module in vitest.config.ts).
 */
const environment: Environment = {
  name: 'happy-dom-with-node-network',
  viteEnvironment: 'ssr',
  async setup(global: Record<string, unknown>, options) {
    const kept = NODE_GLOBALS.map((key) => [key, global[key]] as const)
    const dom = await happyDom.setup(global, options)
    for (const [key, value] of kept) global[key] = value
    return dom
  },
}

export default environment
