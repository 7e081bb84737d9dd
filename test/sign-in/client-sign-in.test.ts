// @vitest-environment happy-dom-node
import { getWallets } from '@wallet-standard/app'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/src/app'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_APP_KEY,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { Client } from '../../src/client'
import { SolanaInjectedConnector } from '../../src/connectors'
import { isAppError } from '../../src/errors'
import { parseSignInMessage } from '../../src/wire'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { createTestSolanaWallet } from '../support/wallet-standard-wallet'

// client.signIn() end to end: a real anvil behind a viem-keyed EIP-1193 wallet, a Wallet Standard
// wallet with a real ed25519 key, the real server (its nonce and verify routes). Every failure
// twin is followed by a sign-in that works.

const SITE = { domain: 'app.example', uri: 'https://app.example/login' }
const anvil = sharedAnvil()
let server: TestServer
let port: number

const projects = () => ({
  projects: [
    {
      ...TEST_PROJECT,
      networks: [{ chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl }, { chainId: SOLANA_DEVNET }],
      allowedOrigins: ['https://app.example'],
    },
  ],
})

beforeAll(async () => {
  server = await startTestServer({ projects: projects() })
  port = Number(new URL(server.baseUrl).port)
})
afterAll(async () => {
  await server?.close()
})
/** The real server again, on the port the clients know (the backend back after an outage). */
async function restartOn(at: number): Promise<TestServer> {
  const app = await buildApp({ projects: projects() })
  await app.listen({ port: at, host: '127.0.0.1' })
  return { baseUrl: `http://127.0.0.1:${at}`, appKey: TEST_APP_KEY, app, close: () => app.close() }
}

afterEach(() => {
  delete (window as { ethereum?: unknown }).ethereum
})

async function connectedEvm(): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
  ;(window as { ethereum?: unknown }).ethereum = wallet
  const client = new Client({ baseUrl: server.baseUrl, appKey: server.appKey, mobile: false })
  await client.connect()
  return { client, wallet }
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) =>
      isAppError(error)
        ? [error.code, error.backendCode, error.details?.[0]?.field].filter(Boolean).join(' ')
        : String(error),
  )

describe('client.signIn (EIP-4361)', () => {
  it('default: the wallet signs an EIP-4361 message through the sign chart; the record is verified', async () => {
    const { client, wallet } = await connectedEvm()
    const states: string[] = []
    client.subscribe((view) => states.push(view.status))
    const record = await client.signIn({ ...SITE, statement: 'Welcome back.' })
    expect(record).toMatchObject({
      address: wallet.accounts[0]?.address,
      chainId: 'eip155:31337',
      domain: 'app.example',
      statement: 'Welcome back.',
      kind: 'eoa',
    })
    expect(states).toContain('signing')
    const signed = wallet.requests.filter((r) => r.method === 'personal_sign')
    expect(signed).toHaveLength(1)
    const hex = (signed[0]?.params as string[] | undefined)?.[0] ?? ''
    const text = new TextDecoder().decode(
      Uint8Array.from(hex.slice(2).match(/../g) ?? [], (b) => Number.parseInt(b, 16)),
    )
    expect(parseSignInMessage(text)).toMatchObject({ nonce: record.nonce, chainId: 31337 })
    expect(client.getView().status).toBe('connected')
  })

  it('error: bad parameters are INVALID_CONFIG before anything is sent; the next sign-in works', async () => {
    const { client, wallet } = await connectedEvm()
    expect(await codeOf(client.signIn({ ...SITE, statement: 'two\nlines' }))).toBe(
      'INVALID_CONFIG signIn parameters.statement',
    )
    expect(await codeOf(client.signIn({ ...SITE, domain: 'not a host' }))).toBe(
      'INVALID_CONFIG signIn parameters.domain',
    )
    expect(await codeOf(client.signIn(42 as never))).toMatch(/^INVALID_CONFIG/)
    expect(wallet.requests.filter((r) => r.method === 'personal_sign')).toHaveLength(0)
    await expect(client.signIn(SITE)).resolves.toMatchObject({ kind: 'eoa' })
  })

  it('error: not connected is NOT_CONNECTED', async () => {
    const client = new Client({ baseUrl: server.baseUrl, appKey: server.appKey, mobile: false })
    expect(await codeOf(client.signIn(SITE))).toBe('NOT_CONNECTED')
  })

  it('error: the wallet rejects: USER_REJECTED; the next sign-in works', async () => {
    const { client, wallet } = await connectedEvm()
    wallet.rejectNextRequest('personal_sign')
    expect(await codeOf(client.signIn(SITE))).toBe('USER_REJECTED')
    await expect(client.signIn(SITE)).resolves.toMatchObject({ kind: 'eoa' })
  })

  it('error: an expired message: BACKEND_ERROR VALIDATION_FAILED; the next sign-in works', async () => {
    const { client } = await connectedEvm()
    const expired = { ...SITE, expirationTime: new Date(Date.now() - 1000).toISOString() }
    expect(await codeOf(client.signIn(expired))).toBe(
      'BACKEND_ERROR VALIDATION_FAILED message.expirationTime',
    )
    await expect(client.signIn(SITE)).resolves.toMatchObject({ kind: 'eoa' })
  })

  it('error: a wrong domain: BACKEND_ERROR VALIDATION_FAILED; the next sign-in works', async () => {
    const { client } = await connectedEvm()
    const evil = { domain: 'evil.example', uri: 'https://evil.example' }
    expect(await codeOf(client.signIn(evil))).toBe('BACKEND_ERROR VALIDATION_FAILED message.domain')
    await expect(client.signIn(SITE)).resolves.toMatchObject({ kind: 'eoa' })
  })

  it('error: the backend down: BACKEND_ERROR, nothing signed; once it is back the next sign-in works', async () => {
    const { client, wallet } = await connectedEvm()
    await server.close()
    try {
      expect(await codeOf(client.signIn(SITE))).toBe('BACKEND_ERROR')
      expect(wallet.requests.filter((r) => r.method === 'personal_sign')).toHaveLength(0)
    } finally {
      server = await restartOn(port)
    }
    await expect(client.signIn(SITE)).resolves.toMatchObject({ kind: 'eoa' })
  })
})

describe('client.signIn (Sign-In With Solana)', () => {
  it('default: a Wallet Standard wallet signs the SIWS text with its ed25519 key; verified', async () => {
    const phantom = createTestSolanaWallet({ name: 'Phantom' })
    const unregister = getWallets().register(phantom.wallet)
    try {
      const connector = new SolanaInjectedConnector({ walletId: 'phantom', chainId: SOLANA_DEVNET })
      const client = new Client({
        baseUrl: server.baseUrl,
        appKey: server.appKey,
        connectors: [connector],
        mobile: false,
      })
      const connection = await client.connect()
      const record = await client.signIn(SITE)
      expect(record).toMatchObject({
        address: connection.accounts[0],
        chainId: SOLANA_DEVNET,
        kind: 'eoa',
      })
      phantom.rejectNext()
      expect(await codeOf(client.signIn(SITE))).toBe('USER_REJECTED')
      await expect(client.signIn(SITE)).resolves.toMatchObject({ chainId: SOLANA_DEVNET })
    } finally {
      unregister()
    }
  })
})
