// @vitest-environment happy-dom
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { type Hex, verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { Eip6963Connector } from '../../src/connectors/eip6963'
import {
  createBackendDouble,
  createTestWallet,
  type ScriptedEvmWallet,
  TEST_APP_KEY,
  TEST_BASE_URL,
  TEST_PARTNER_WALLET_ID,
} from '../../src/testing'

const SOLANA_CHAIN = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

// The test wallets: real keys, scripted prompts, every request recorded, findable as extensions are.

const settled = async (promise: Promise<unknown>, ms = 50) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((resolve) => setTimeout(() => resolve('pending'), ms)),
  ])

describe('createTestWallet (EVM): an EIP-1193 provider on viem accounts', () => {
  it('connects and signs with its real key', async () => {
    const wallet = createTestWallet({ namespace: 'eip155' })
    const provider = wallet.provider as ScriptedEvmWallet
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([
      wallet.address,
      expect.any(String),
    ])
    const message = 'hello'
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [message, wallet.address],
    })) as Hex
    expect(await verifyMessage({ address: wallet.address as Hex, message, signature })).toBe(true)
    expect(wallet.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  it('switches chains it knows, answers 4902 for others, adds them; signs and sends transactions', async () => {
    const wallet = createTestWallet({ namespace: 'eip155' })
    const provider = wallet.provider as ScriptedEvmWallet
    const changes: unknown[] = []
    provider.on('chainChanged', (chainId: never) => changes.push(chainId))
    await provider.request({ method: 'eth_requestAccounts' })
    const switchTo = (chainId: string) =>
      provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
    await switchTo('0xa')
    expect(provider.chainId).toBe('eip155:10')
    await expect(switchTo('0xa4b1')).rejects.toMatchObject({ code: 4902 })
    await provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0xa4b1' }] })
    expect(provider.chainId).toBe('eip155:42161')
    await switchTo('0xa4b1') // known now, already there: no prompt
    // From an added chain, the wallet's own chain change goes back to its first chain.
    wallet.act('changeChain')
    expect(changes).toEqual(['0xa', '0xa4b1', '0x1'])
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: wallet.address, to: wallet.address, value: '0x0' }],
    })
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    wallet.next('reject')
    await expect(
      provider.request({ method: 'eth_sendTransaction', params: [{ from: wallet.address }] }),
    ).rejects.toMatchObject({ code: 4001 })
    expect(provider.requests.map((r) => `${r.method}:${r.behaviour}`)).toEqual([
      'eth_requestAccounts:approve',
      'wallet_switchEthereumChain:approve',
      'wallet_switchEthereumChain:passive',
      'wallet_addEthereumChain:approve',
      'wallet_switchEthereumChain:passive',
      'eth_sendTransaction:approve',
      'eth_sendTransaction:reject',
    ])
  })

  it('answers each prompt as scripted: next, answer, hold and release, a handler', async () => {
    const wallet = createTestWallet({ namespace: 'eip155', chains: [10, 1] })
    const provider = wallet.provider as ScriptedEvmWallet
    const ask = () => provider.request({ method: 'eth_requestAccounts' })
    wallet.next('reject')
    wallet.next('error')
    await expect(ask()).rejects.toMatchObject({ code: 4001 })
    await expect(ask()).rejects.toMatchObject({ code: -32603 })
    expect(await ask()).toHaveLength(2)
    wallet.answer = 'hang'
    expect(await settled(ask())).toBe('pending')
    wallet.answer = 'hold'
    const held = ask()
    expect(await settled(held)).toBe('pending')
    expect(wallet.held).toBe(1)
    expect(wallet.release('approve')).toBe(true)
    expect(await held).toHaveLength(2)
    expect(wallet.release('approve')).toBe(false)
    wallet.next(({ method }) => `handled ${method}`)
    expect(await ask()).toBe('handled eth_requestAccounts')
    // Passive reads are answered whatever the script says.
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0xa')
    expect(wallet.requests.map((r) => [r.method, r.behaviour, r.outcome])).toEqual([
      ['eth_requestAccounts', 'reject', 'error'],
      ['eth_requestAccounts', 'error', 'error'],
      ['eth_requestAccounts', 'approve', 'result'],
      ['eth_requestAccounts', 'hang', 'pending'],
      ['eth_requestAccounts', 'hold', 'result'],
      ['eth_requestAccounts', 'handler', 'result'],
      ['eth_chainId', 'passive', 'result'],
    ])
  })

  it('changes account and chain, and locks, as its UI would', async () => {
    const wallet = createTestWallet({ namespace: 'eip155' })
    const provider = wallet.provider as ScriptedEvmWallet
    const seen: unknown[] = []
    provider.on('accountsChanged', ((accounts: string[]) => seen.push(accounts)) as never)
    provider.on('chainChanged', ((chain: string) => seen.push(chain)) as never)
    const [first, second] = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
    wallet.act('changeAccount')
    wallet.act('changeChain')
    wallet.act('lock')
    expect(seen).toEqual([[second, first], '0xa', []])
    expect(wallet.address).toBe(second)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
  })

  it('announces itself over EIP-6963: a connector finds and connects it', async () => {
    const wallet = createTestWallet({ namespace: 'eip155' })
    const undo = wallet.announce(window, 'io.example.test')
    try {
      const connection = await new Eip6963Connector('io.example.test', { timeoutMs: 500 }).connect()
      expect(connection.accounts[0]).toBe(wallet.address)
      expect(wallet.requests.some((r) => r.method === 'eth_requestAccounts')).toBe(true)
    } finally {
      undo()
    }
  })
})

describe('createTestWallet (Solana): a Wallet Standard wallet on an ed25519 key', () => {
  it('is found through the Wallet Standard, connects and signs with its real key', async () => {
    const wallet = createTestWallet({ namespace: 'solana', name: 'Kit Test Wallet' })
    const unregister = wallet.announce()
    try {
      const connector = wallet.connector()
      const connection = await connector.connect()
      expect(connection.accounts[0]).toBe(wallet.address)
      const message = new TextEncoder().encode('hello')
      const features = (wallet.provider as { features: Record<string, unknown> }).features
      const sign = features['solana:signMessage'] as {
        signMessage(input: {
          account: unknown
          message: Uint8Array
        }): Promise<{ signature: Uint8Array }[]>
      }
      const account = (wallet.provider as { accounts: readonly unknown[] }).accounts[0]
      const [signed] = await sign.signMessage({ account, message })
      expect(ed25519.verify(signed!.signature, message, base58.decode(wallet.address))).toBe(true)
      wallet.next('reject')
      await expect(sign.signMessage({ account, message })).rejects.toMatchObject({ code: 4001 })
      expect(wallet.requests.map((r) => [r.method, r.outcome])).toEqual([
        ['standard:connect', 'result'],
        ['solana:signMessage', 'result'],
        ['solana:signMessage', 'error'],
      ])
    } finally {
      unregister()
    }
  })
})

describe('createTestWallet (Solana) answers a universal link as a phone would', () => {
  it('posts the connect callback with the link nonce, or a rejection; the session records it', async () => {
    const backend = createBackendDouble()
    const session = async () => {
      const created = await backend.fetch(`${TEST_BASE_URL}/api/v1/connect/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-key': TEST_APP_KEY },
        body: JSON.stringify({ caip2Chain: SOLANA_CHAIN, walletSlug: 'phantom' }),
      })
      const { sessionId, nonce, sessionToken } = (await created.json()) as Record<string, string>
      const link = `https://phantom.app/ul/scope-connect?${new URLSearchParams({
        scSessionId: sessionId as string,
        scNonce: nonce as string,
        scCallback: TEST_BASE_URL,
        scChain: SOLANA_CHAIN,
      })}`
      const result = async () =>
        (await (
          await backend.fetch(`${TEST_BASE_URL}/api/v1/connect/sessions/${sessionId}/result`, {
            headers: { authorization: `Bearer ${sessionToken}` },
          })
        ).json()) as { status: string; walletAddress?: string }
      return { link, result }
    }
    const wallet = createTestWallet({ namespace: 'solana', walletId: TEST_PARTNER_WALLET_ID })

    const approved = await session()
    expect(await wallet.answerLink(approved.link, 'approve', backend.fetch)).toBe(204)
    expect(await approved.result()).toMatchObject({
      status: 'connected',
      walletAddress: wallet.address,
    })

    const rejected = await session()
    expect(await wallet.answerLink(rejected.link, 'reject', backend.fetch)).toBe(204)
    expect((await rejected.result()).status).toBe('rejected')

    // The wallet app failing is a rejection with its own code, which the backend records as failed.
    const failing = await session()
    expect(await wallet.answerLink(failing.link, 'error', backend.fetch)).toBe(204)
    expect(await failing.result()).toMatchObject({
      status: 'failed',
      errorCode: 'WALLET_INTERNAL_ERROR',
    })

    // A link whose nonce is not the session's is refused like any stranger's callback.
    const forged = await session()
    const wrongNonce = forged.link.replace(/scNonce=[^&]+/, 'scNonce=00')
    expect(await wallet.answerLink(wrongNonce, 'approve', backend.fetch)).toBe(404)
    expect((await forged.result()).status).toBe('pending')
  })
})
