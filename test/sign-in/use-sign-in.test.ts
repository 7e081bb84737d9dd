// @vitest-environment happy-dom-node
import { act, createElement as h } from 'react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, TEST_PROJECT, type TestServer } from '../../server/test/support/server'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { ClientProvider, useSignIn } from '../../src/react'
import { createEip1193TestWallet } from '../support/eip1193-wallet'
import { useReactRoot } from '../support/react-root'
import { sharedAnvil } from '../support/shared-services'

// useSignIn rendered with react-dom in happy-dom against a real Client, the real server and
// anvil: the verified record shows; the wallet rejects, and the next sign-in works.

const anvil = sharedAnvil()
let server: TestServer
const SITE = { domain: 'app.example', uri: 'https://app.example' }

beforeAll(async () => {
  server = await startTestServer({
    projects: {
      projects: [
        { ...TEST_PROJECT, networks: [{ chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl }] },
      ],
    },
  })
})
afterAll(async () => {
  await server?.close()
})

const { mount, text } = useReactRoot()
const controls: { signIn?: ReturnType<typeof useSignIn> } = {}

function SignIn() {
  const signIn = useSignIn()
  controls.signIn = signIn
  const error = signIn.error as { code?: string } | null
  return h('p', { id: 'sign-in' }, `${signIn.status} ${signIn.data?.address ?? error?.code ?? '-'}`)
}

describe('useSignIn', () => {
  it('default: shows the verified record; error: the wallet rejects, then the next sign-in works', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
    })
    await client.connect()
    mount(h(ClientProvider, { client }, h(SignIn)))
    expect(text('sign-in')).toBe('idle -')

    wallet.rejectNextRequest('personal_sign')
    await act(async () => {
      await controls.signIn?.signInAsync(SITE).catch(() => undefined)
    })
    expect(text('sign-in')).toBe('error USER_REJECTED')

    await act(async () => {
      await controls.signIn?.signInAsync(SITE)
    })
    expect(text('sign-in')).toBe(`success ${wallet.accounts[0]?.address}`)
  })
})
