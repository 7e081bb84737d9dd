import { build } from 'esbuild'
import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { entryModules } from '../scripts/build'
import { Client, toClientView } from '../src/client'
import {
  ClientProvider,
  useBalance,
  useClientActor,
  useClientSelector,
  useClientView,
  useConnect,
  useConnection,
  useSignMessage,
  useSwitchChain,
} from '../src/react'

// The React entry on its own: server rendering (no DOM), and no other entry reaching React.

function Status({ client }: { client: Client }) {
  const view = useClientView(client)
  const connection = useConnection(client)
  const actor = useClientActor(client)
  const walletId = useClientSelector(client, (snapshot) => toClientView(snapshot).walletId)
  return h(
    'p',
    null,
    `${view.status}|${view.canConnect}|${connection === null}|${actor === client.actor}|${walletId}`,
  )
}

describe('scope-connect/react on the server (react-dom/server)', () => {
  it('renders the client view without a DOM', () => {
    expect(typeof document).toBe('undefined')
    const client = new Client({ baseUrl: 'https://api.example.com', appKey: 'public-key' })
    expect(renderToString(h(Status, { client }))).toBe('<p>idle|true|true|true|null</p>')
  })

  it('renders the provider and the action and balance hooks without reading anything', () => {
    const client = new Client({ baseUrl: 'https://api.example.com', appKey: 'public-key' })
    function Actions() {
      const connect = useConnect()
      const sign = useSignMessage()
      const switchChain = useSwitchChain()
      const balance = useBalance({
        chainId: 'eip155:1',
        account: '0x0000000000000000000000000000000000000001',
      })
      const view = useClientView()
      return h(
        'p',
        null,
        `${connect.status}|${sign.status}|${switchChain.status}|${balance.status}|${balance.isFetching}|${view.status}`,
      )
    }
    const html = renderToString(h(ClientProvider, { client }, h(Actions)))
    expect(html).toBe('<p>idle|idle|idle|pending|false|idle</p>')
  })
})

/** An entry's module graph from the sources: its modules and the packages they import. */
async function graphOf(entry: string): Promise<{ modules: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports)
  return {
    modules: Object.keys(result.metafile.inputs),
    packages: [...new Set(imports.filter((item) => item.external).map((item) => item.path))],
  }
}

describe('React stays in scope-connect/react', () => {
  const REACT = ['react', '@xstate/react', 'react-dom']

  it('no other entry of package.json exports imports react or @xstate/react', async () => {
    const others = entryModules().filter((entry) => entry !== 'src/react/index.ts')
    expect(others.length).toBeGreaterThanOrEqual(7)
    for (const entry of others) {
      const { packages } = await graphOf(entry)
      expect(packages.length, entry).toBeGreaterThan(0)
      expect(
        packages.filter((name) =>
          REACT.some((peer) => name === peer || name.startsWith(`${peer}/`)),
        ),
        entry,
      ).toEqual([])
    }
  })

  it('the React entry imports its two peers and not the Client (AppError alone besides)', async () => {
    const { modules, packages } = await graphOf('src/react/index.ts')
    expect(packages.sort()).toEqual(['@xstate/react', 'react'])
    expect(modules).toContain('src/react/use-client-selector.ts')
    expect(modules).toContain('src/react/use-balance.ts')
    expect(modules.filter((file) => !file.startsWith('src/react/'))).toEqual([
      'src/errors/app-error.ts',
    ])
    expect(entryModules()).toContain('src/react/index.ts')
  })
})
