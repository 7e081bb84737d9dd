import { type Hex, verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { waitFor } from 'xstate'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
import { sessionSignInput } from '../machines/sign/sign.actors'
import { createSignActor } from '../machines/sign/sign.facade'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import { GenericWalletSessionClient } from '../src/session/client'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { textLinkStore } from './support/text-link-store'

const backend = useBackendWithAnvil()

/** A custom connector registered through `connectors`: its id is a wallet id, so it maps to MetaMask. */
async function clientWithWallet(): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl, extraChains: [1] })
  const connector = new Eip1193Connector('metamask', () => wallet)
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [connector],
    mobile: false,
  })
  return { client, wallet }
}

describe('Client with an EIP-1193 wallet on a real viem account and anvil', () => {
  it('selects the custom connector, connects, follows account switches and disconnects', async () => {
    const { client, wallet } = await clientWithWallet()
    const connector = await client.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).toBe('metamask')
    const states: string[] = []
    client.connectActor.subscribe((s) => states.push(String(s.value)))

    const connection = await client.connect()
    expect(connection).toMatchObject({
      walletId: 'metamask',
      namespace: 'eip155',
      chainId: 'eip155:31337',
    })
    expect(connection.accounts[0]?.toLowerCase()).toBe(wallet.accounts[0]?.address.toLowerCase())
    expect(states).toContain('connecting')
    expect(states.at(-1)).toBe('connected')

    const second = wallet.accounts[1]?.address as Hex
    wallet.switchAccount(second)
    await waitFor(
      client.connectActor,
      (s) => s.context.connection?.accounts[0]?.toLowerCase() === second.toLowerCase(),
    )
    expect(client.getConnection()?.accounts[0]?.toLowerCase()).toBe(second.toLowerCase())

    await client.disconnect()
    expect(client.getConnection()).toBeNull()
  })

  it('signs a message the account really signed, and keeps a user rejection apart', async () => {
    const { client, wallet } = await clientWithWallet()
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    const signature = (await client.signMessage('Sign in to Example')) as Hex
    const address = wallet.accounts[0]?.address as Hex
    expect(await verifyMessage({ address, message: 'Sign in to Example', signature })).toBe(true)

    wallet.rejectNextRequest()
    const error = await client.signMessage('again').catch((e: unknown) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
  })

  it('signs the session envelope and the server verify route records the session as signed', async () => {
    const { client, wallet } = await clientWithWallet()
    const connector = await client.selectWallet('metamask', { namespace: 'eip155' })
    const connection = await client.connect()
    const sessions = new GenericWalletSessionClient(backend.server.baseUrl, backend.server.appKey)
    const session = await sessions.createSession('eip155:31337', { intent: 'sign' })
    const actor = createSignActor(connector, {
      input: sessionSignInput(session, connection.accounts[0] ?? ''),
      verifier: { client: sessions, sessionToken: session.sessionToken },
    }).start()
    actor.send({ type: 'SIGN' })
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(done.output?.verification).toMatchObject({ status: 'signed', signed: true })
    expect(done.output?.verification?.walletAddress?.toLowerCase()).toBe(
      wallet.accounts[0]?.address.toLowerCase(),
    )
    const result = await sessions.getResult(session.sessionId, session.sessionToken)
    expect(result.status).toBe('signed')
  })

  it('signing before connecting is NOT_CONNECTED; signTransaction on EVM is UNSUPPORTED_CHAIN', async () => {
    const { client } = await clientWithWallet()
    await client.selectWallet('metamask', { namespace: 'eip155' })
    expect(
      isAppError(await client.signMessage('x').catch((e: unknown) => e), 'NOT_CONNECTED'),
    ).toBe(true)
    await client.connect()
    expect(
      isAppError(
        await client.signTransaction('AQID').catch((e: unknown) => e),
        'UNSUPPORTED_CHAIN',
      ),
    ).toBe(true)
  })

  it('reads the project config and a real balance through the backend', async () => {
    const { client } = await clientWithWallet()
    const config = await client.loadConfig()
    expect(config.networks.map((n) => n.networkId)).toEqual(['eip155:31337', SOLANA_DEVNET])
    expect(config.wallets.map((w) => w.walletId)).toContain('phantom')

    const funded = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' // anvil's first dev account
    await fetch(backend.anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'anvil_setBalance',
        params: [funded, '0x1234567890abcdef'],
      }),
    })
    const balance = await client.getBalance({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account: funded,
    })
    expect(balance.raw).toBe(0x1234567890abcdefn)
    expect(balance.decimals).toBe(18)
  })

  it('unknown wallets and unsupported namespaces are typed errors', async () => {
    const { client } = await clientWithWallet()
    await expect(client.selectWallet('no-such-wallet', { namespace: 'eip155' })).rejects.toThrow(
      expect.objectContaining({ code: 'WALLET_NOT_FOUND' }),
    )
    await expect(client.selectWallet('phantom', { namespace: 'eip155' })).resolves.toBeDefined()
    await expect(client.selectWallet('solflare', { namespace: 'eip155' })).rejects.toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CHAIN' }),
    )
  })

  it('refuses a configuration without baseUrl or appKey', () => {
    expect(() => new Client({ baseUrl: '', appKey: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    )
    expect(() => new Client({ baseUrl: backend.server.baseUrl, appKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    )
  })
})

describe('Client on mobile: the universal-link flow survives a reload', () => {
  it('connects the partner wallet by universal link, reloads, resumes connected and signs', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const store = textLinkStore()
    const links: string[] = []
    const options = {
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: true,
      // The sc* universal links are a partner wallet's protocol; no built-in brand declares them.
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: SOLANA_DEVNET,
      universalLink: {
        store,
        openLink: (url: string) => links.push(url),
        returnUrl: 'https://dapp.example/',
        pollIntervalMs: 20,
      },
    } as const

    const before = new Client(options)
    await before.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    void before.connect().catch(() => {})
    for (let i = 0; i < 200 && links.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    expect(links[0]).toMatch(/^https:\/\/wallet\.scope-connect\.test\/ul\/.*scNonce=/)
    before.actor.stop() // the page goes away; only storage survives

    await wallet.handle(links[0] ?? '')
    const after = new Client(options)
    const resumed = await after.resume()
    expect(resumed.status).toBe('awaitingWallet')
    expect(await resumed.wait()).toMatchObject({ accounts: [wallet.address] })
    expect(after.getConnection()).toMatchObject({
      walletId: TEST_PARTNER_WALLET_ID,
      namespace: 'solana',
      accounts: [wallet.address],
    })

    const signing = after.signMessage('ignored over a universal link')
    for (let i = 0; i < 200 && links.length < 2; i++) await new Promise((r) => setTimeout(r, 5))
    await wallet.handle(links[1] ?? '')
    expect(typeof (await signing)).toBe('string')
    // Back to connected: the stored flow is the connected one, until disconnect clears it.
    expect(JSON.parse(store.value ?? '{}').snapshot.value).toEqual({ link: { flow: 'connected' } })
    await after.disconnect()
    expect(store.value).toBeNull()
    expect(after.getView().status).toBe('disconnected')
  })

  it('resume with nothing stored reports none', async () => {
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: true,
      universalLink: { store: textLinkStore() },
    })
    expect((await client.resume()).status).toBe('none')
  })
})
