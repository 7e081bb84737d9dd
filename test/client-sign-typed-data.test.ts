import { type Hex, recoverTypedDataAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../server/test/support/server'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import { createEip1193TestWallet } from './support/eip1193-wallet'
import { sharedAnvil } from './support/shared-services'

// `Client.signTypedData` with an EIP-1193 wallet on a real viem account (anvil chain).

const anvil = sharedAnvil()
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const typedData = {
  domain: { name: 'Scope', version: '1', chainId: 31337 },
  types: { Order: [{ name: 'amount', type: 'uint256' }] },
  primaryType: 'Order',
  message: { amount: 2n ** 70n },
} as const

describe('Client.signTypedData', () => {
  it('signs EIP-712 typed data (bigints as decimal strings) that recovers to the connected account', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
    })
    expect(isAppError(await client.signTypedData(typedData).catch((e) => e), 'NOT_CONNECTED')).toBe(
      true,
    )
    const connection = await client.connect()
    const signature = (await client.signTypedData(typedData)) as Hex
    expect((await recoverTypedDataAddress({ ...typedData, signature })).toLowerCase()).toBe(
      connection.accounts[0]?.toLowerCase(),
    )
    wallet.rejectNextRequest()
    expect(isAppError(await client.signTypedData(typedData).catch((e) => e), 'USER_REJECTED')).toBe(
      true,
    )
  })
})
