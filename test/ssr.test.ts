import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

// A fresh Node process with no window, document or localStorage: importing the library and using
// its pure parts must neither throw nor touch globals (sideEffects: false is a promise).
// zod registers its two globals on import; that is zod's, not ours, and is allowed by name.
const script = `
const ALLOWED = new Set(['__zod_globalConfig', '__zod_globalRegistry'])
const before = new Set(Object.getOwnPropertyNames(globalThis))
const api = await import('scope-connect')
const { Client } = await import('scope-connect/client')
const { defineConnectElements } = await import('scope-connect/ui')
defineConnectElements() // no customElements here: does nothing
const added = Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name) && !ALLOWED.has(name))
if (typeof window !== 'undefined' || typeof localStorage !== 'undefined') throw new Error('browser globals present')
const store = api.createBrowserUniversalLinkStore()
store.save({ any: 'thing' })
if (store.load() !== null) throw new Error('SSR store must be a no-op')
store.clear()
const client = new Client({ baseUrl: 'https://api.example.com', appKey: 'public-key' })
if (client.getConnection() !== null) throw new Error('no connection expected')
api.setDebugMode(false)
console.log(JSON.stringify({ added, exports: Object.keys(api).length }))
`

describe('SSR / Node import', () => {
  it('imports and constructs the client with no window and no localStorage, adding no globals', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: new URL('..', import.meta.url).pathname,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    )
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const report = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}')
    expect(report.added).toEqual([])
    expect(report.exports).toBeGreaterThan(50)
  })
})
