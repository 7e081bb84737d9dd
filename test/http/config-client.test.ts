import { describe, expect, it } from 'vitest'
import { createConnectConfigClient } from '../../src/config'
import { expectAppError, expectThrownAppError } from './support/expect-error'
import { backendError, json, refusedBaseUrl, text, useLoopback } from './support/loopback'

const server = useLoopback()

const CONFIG = {
  projectId: 'proj_1',
  name: 'Demo dApp',
  networks: [
    {
      networkId: 'eip155:1',
      namespace: 'eip155',
      name: 'Ethereum',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      testnet: false,
    },
  ],
  wallets: [{ walletId: 'metamask', name: 'MetaMask', namespaces: ['eip155'] }],
}

describe('createConnectConfigClient', () => {
  it('GETs /config with X-App-Key and returns networks and wallets', async () => {
    server.handle(json(200, CONFIG))
    const client = createConnectConfigClient({ baseUrl: `${server.baseUrl}/`, appKey: 'pk_cfg' })
    const config = await client.fetchConfig()
    expect(config).toEqual(CONFIG)
    const request = server.requests.at(-1)
    expect(request?.url.pathname).toBe('/api/v1/connect/config')
    expect(request?.headers['x-app-key']).toBe('pk_cfg')
  })

  it.each([
    [401, 'INVALID_APP_KEY'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_ERROR'],
  ])('maps %d %s to RPC_ERROR', async (status, code) => {
    server.handle(backendError(status, code, 'no', { headers: { 'retry-after': '3' } }))
    const client = createConnectConfigClient({ baseUrl: server.baseUrl, appKey: 'pk_cfg' })
    const error = await expectAppError(client.fetchConfig(), 'RPC_ERROR')
    expect(error).toMatchObject({ status, backendCode: code, retryAfterMs: 3000 })
  })

  it('rejects an invalid body and invalid JSON with RPC_ERROR', async () => {
    const client = createConnectConfigClient({ baseUrl: server.baseUrl, appKey: 'pk_cfg' })
    server.handle(json(200, { ...CONFIG, networks: [{ networkId: 'nope' }] }))
    await expectAppError(client.fetchConfig(), 'RPC_ERROR')
    server.handle(text(200, 'not json'))
    await expectAppError(client.fetchConfig(), 'RPC_ERROR')
  })

  it('maps a refused connection to RPC_ERROR', async () => {
    const client = createConnectConfigClient({ baseUrl: await refusedBaseUrl(), appKey: 'pk' })
    await expectAppError(client.fetchConfig(), 'RPC_ERROR')
  })

  it('throws INVALID_CONFIG without baseUrl or appKey', () => {
    expectThrownAppError(
      () => createConnectConfigClient({ baseUrl: '', appKey: 'k' }),
      'INVALID_CONFIG',
    )
    expectThrownAppError(
      () => createConnectConfigClient({ baseUrl: 'https://x.example.com', appKey: '' }),
      'INVALID_CONFIG',
    )
  })
})
