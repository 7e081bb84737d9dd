import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Client, toClientView } from '../src/client'
import { useClientActor, useClientSelector, useClientView, useConnection } from '../src/react'

// Server rendering (no DOM): every hook renders the client as it stands, without a subscription
// and without the "getServerSnapshot" error useSyncExternalStore throws on the server otherwise.

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
})
