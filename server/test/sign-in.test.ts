import { base58 } from '@scure/base'
import { Redis } from 'ioredis'
import { buildSignInMessage, type SignInMessage } from 'scope-connect/wire'
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  serializeErc6492Signature,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../test/support/redis'
import { createRedisStore, type RedisStore } from '../src/store/redis'
import { contracts } from './chains/support/contracts'
import { startEvmFixture } from './chains/support/evm-fixture'
import { solanaKey } from './chains/support/solana-keys'
import { call } from './support/http'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_APP_KEY,
  TEST_PROJECT,
  type TestServer,
} from './support/server'

// Sign-In with Ethereum (EIP-4361) and With Solana against the real server: a real anvil, real
// keys, real ERC-1271 / ERC-6492 contracts compiled by solc-js, the memory store and Redis.

const DOMAIN = 'app.example'
const ORIGIN = `https://${DOMAIN}`
const headers = { 'x-app-key': TEST_APP_KEY, origin: ORIGIN }

let fx: Awaited<ReturnType<typeof startEvmFixture>>
let server: TestServer
let redis: RunningRedis
let store: RedisStore
let redisServer: TestServer

const project = () => ({
  projects: [
    {
      ...TEST_PROJECT,
      networks: [{ chainId: 'eip155:31337', rpcUrl: fx.anvil.rpcUrl }, { chainId: SOLANA_DEVNET }],
      allowedOrigins: [ORIGIN],
    },
  ],
})

beforeAll(async () => {
  fx = await startEvmFixture()
  server = await startTestServer({ projects: project() })
  redis = await startRedis()
  store = createRedisStore(redis.url, { connectTimeoutMs: 500, commandTimeoutMs: 500 })
  await store.ready()
  redisServer = await startTestServer({ projects: project(), store })
})
afterAll(async () => {
  await server?.close()
  await redisServer?.close()
  await store?.close()
  await redis?.stop()
  await fx?.anvil.stop()
})

async function nonce(base = server.baseUrl): Promise<string> {
  const answer = await call(base, '/sign-in/nonce', { method: 'POST', headers })
  expect(answer.status).toBe(201)
  return (answer.body as { nonce: string }).nonce
}

async function evmMessage(address: string, extra: Partial<SignInMessage> = {}, base?: string) {
  return buildSignInMessage({
    namespace: 'eip155',
    domain: DOMAIN,
    address,
    statement: 'Sign in to the test dApp.',
    uri: `${ORIGIN}/login`,
    version: '1',
    chainId: 31337,
    nonce: await nonce(base),
    issuedAt: new Date().toISOString(),
    ...extra,
  } as SignInMessage)
}

const verify = (message: string, signature: string, base = server.baseUrl, h = headers) =>
  call(base, '/sign-in/verify', { headers: h, body: { message, signature } })

const codeOf = (answer: { body: unknown }) =>
  (answer.body as { error: { code: string } }).error.code
const fieldOf = (answer: { body: unknown }) =>
  (answer.body as { error: { details?: { field: string }[] } }).error.details?.[0]?.field

describe('POST /sign-in/verify: EIP-191 (EOA)', () => {
  const account = privateKeyToAccount(generatePrivateKey())

  it('default: answers the verified record', async () => {
    const message = await evmMessage(account.address)
    const answer = await verify(message, await account.signMessage({ message }))
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      address: account.address,
      chainId: 'eip155:31337',
      domain: DOMAIN,
      uri: `${ORIGIN}/login`,
      statement: 'Sign in to the test dApp.',
      kind: 'eoa',
    })
  })

  it('error: the nonce used twice is 409 NONCE_USED, and a new nonce works after', async () => {
    const message = await evmMessage(account.address)
    const signature = await account.signMessage({ message })
    expect((await verify(message, signature)).status).toBe(200)
    const again = await verify(message, signature)
    expect([again.status, codeOf(again)]).toEqual([409, 'NONCE_USED'])
    const next = await evmMessage(account.address)
    expect((await verify(next, await account.signMessage({ message: next }))).status).toBe(200)
  })

  it('error: a nonce the server never issued is 409 NONCE_USED', async () => {
    const message = buildSignInMessage({
      namespace: 'eip155',
      domain: DOMAIN,
      address: account.address,
      uri: ORIGIN,
      version: '1',
      chainId: 31337,
      nonce: 'abcdef0123456789',
      issuedAt: new Date().toISOString(),
    })
    const answer = await verify(message, await account.signMessage({ message }))
    expect([answer.status, codeOf(answer)]).toEqual([409, 'NONCE_USED'])
  })

  it('error: an expired message is 422 naming message.expirationTime; the next sign-in works', async () => {
    const past = new Date(Date.now() - 60_000)
    const message = await evmMessage(account.address, {
      issuedAt: new Date(past.getTime() - 60_000).toISOString(),
      expirationTime: past.toISOString(),
    })
    const answer = await verify(message, await account.signMessage({ message }))
    expect([answer.status, codeOf(answer), fieldOf(answer)]).toEqual([
      422,
      'VALIDATION_FAILED',
      'message.expirationTime',
    ])
    const next = await evmMessage(account.address)
    expect((await verify(next, await account.signMessage({ message: next }))).status).toBe(200)
  })

  it('error: a wrong domain is 422 naming message.domain; the next sign-in works', async () => {
    const message = await evmMessage(account.address, {
      domain: 'evil.example',
      uri: 'https://evil.example',
    })
    const answer = await verify(message, await account.signMessage({ message }))
    expect([answer.status, codeOf(answer), fieldOf(answer)]).toEqual([
      422,
      'VALIDATION_FAILED',
      'message.domain',
    ])
    const next = await evmMessage(account.address)
    expect((await verify(next, await account.signMessage({ message: next }))).status).toBe(200)
  })

  it('error: a URI off the domain, an issued-at in the future, a chain not enabled', async () => {
    const offDomain = await evmMessage(account.address, { uri: 'https://elsewhere.example/' })
    expect(
      fieldOf(await verify(offDomain, await account.signMessage({ message: offDomain }))),
    ).toBe('message.uri')
    const future = await evmMessage(account.address, {
      issuedAt: new Date(Date.now() + 3_600_000).toISOString(),
    })
    expect(fieldOf(await verify(future, await account.signMessage({ message: future })))).toBe(
      'message.issuedAt',
    )
    const otherChain = await evmMessage(account.address, { chainId: 8453 })
    const answer = await verify(otherChain, await account.signMessage({ message: otherChain }))
    expect([answer.status, codeOf(answer)]).toEqual([403, 'CHAIN_NOT_ENABLED'])
  })

  it('error: another key, a tampered text: 422 SIGNATURE_INVALID', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    const message = await evmMessage(account.address)
    const answer = await verify(message, await stranger.signMessage({ message }))
    expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
  })

  it('error: garbage bodies are 4xx with the documented body, never 500', async () => {
    for (const body of [
      {},
      { message: 'hello', signature: '0x00' },
      { message: 42, signature: [] },
      { message: 'x'.repeat(10_000), signature: '0x' },
    ]) {
      const answer = await call(server.baseUrl, '/sign-in/verify', { headers, body })
      expect([answer.status, codeOf(answer)]).toEqual([422, 'VALIDATION_FAILED'])
    }
    const noKey = await call(server.baseUrl, '/sign-in/nonce', { method: 'POST' })
    expect([noKey.status, codeOf(noKey)]).toEqual([401, 'MISSING_APP_KEY'])
  })
})

describe('POST /sign-in/verify: contract wallets on anvil', () => {
  const owner = privateKeyToAccount(generatePrivateKey())
  const stranger = privateKeyToAccount(generatePrivateKey())
  let wallet: Address

  beforeAll(async () => {
    wallet = await fx.deploy('OwnedWallet', [owner.address])
  })

  it('ERC-1271: the deployed wallet says yes to its owner (kind contract)', async () => {
    const message = await evmMessage(wallet)
    const answer = await verify(message, await owner.signMessage({ message }))
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ address: getAddress(wallet), kind: 'contract' })
  })

  it('error: the contract wallet says no (a stranger signed): 422; the next sign-in works', async () => {
    const message = await evmMessage(wallet)
    const answer = await verify(message, await stranger.signMessage({ message }))
    expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
    const next = await evmMessage(wallet)
    expect((await verify(next, await owner.signMessage({ message: next }))).status).toBe(200)
  })

  it('ERC-6492: a counterfactual wallet signs in with its factory calldata, not deployed', async () => {
    const factory = await fx.deploy('WalletFactory', [])
    const salt = `0x${'22'.repeat(32)}` as Hex
    const { abi } = contracts().WalletFactory
    const { result } = await fx.publicClient.simulateContract({
      address: factory,
      abi,
      functionName: 'deploy',
      args: [owner.address, salt],
    })
    const counterfactual = result as Address
    const message = await evmMessage(counterfactual)
    const signature = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi, functionName: 'deploy', args: [owner.address, salt] }),
      signature: await owner.signMessage({ message }),
    })
    const answer = await verify(message, signature)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ kind: 'contract' })
    expect(await fx.publicClient.getCode({ address: counterfactual })).toBeUndefined()
    // The stranger's wrapped signature: the counterfactual wallet says no.
    const next = await evmMessage(counterfactual)
    const forged = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi, functionName: 'deploy', args: [owner.address, salt] }),
      signature: await stranger.signMessage({ message: next }),
    })
    expect(codeOf(await verify(next, forged))).toBe('SIGNATURE_INVALID')
  })
})

describe('POST /sign-in/verify: Sign-In With Solana (ed25519)', () => {
  const solanaMessage = async (address: string, extra: Partial<SignInMessage> = {}) =>
    buildSignInMessage({
      namespace: 'solana',
      domain: DOMAIN,
      address,
      statement: 'Sign in to the test dApp.',
      uri: ORIGIN,
      version: '1',
      chainId: 'devnet',
      nonce: await nonce(),
      issuedAt: new Date().toISOString(),
      ...extra,
    } as SignInMessage)

  it('default: a real ed25519 key signs in on devnet', async () => {
    const key = solanaKey()
    const message = await solanaMessage(key.address)
    const answer = await verify(message, base58.encode(key.sign(message)))
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ address: key.address, chainId: SOLANA_DEVNET, kind: 'eoa' })
  })

  it('error: another key, and the nonce used twice', async () => {
    const key = solanaKey()
    const other = solanaKey()
    const message = await solanaMessage(key.address)
    const answer = await verify(message, base58.encode(other.sign(message)))
    expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
    const again = await verify(message, base58.encode(key.sign(message)))
    expect([again.status, codeOf(again)]).toEqual([409, 'NONCE_USED'])
  })
})

describe('nonces in Redis', () => {
  it('a nonce is single use across racing verifies: exactly one wins', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const message = await evmMessage(account.address, {}, redisServer.baseUrl)
    const signature = await account.signMessage({ message })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => verify(message, signature, redisServer.baseUrl)),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409])
  })

  it('a nonce lapses with its TTL in Redis', async () => {
    const issued = await nonce(redisServer.baseUrl)
    const direct = new Redis(redis.url)
    try {
      const keys = await direct.keys(`*signin-nonce:*${issued}`)
      expect(keys).toHaveLength(1)
      const ttl = await direct.pttl(keys[0] as string)
      expect(ttl).toBeGreaterThan(9 * 60_000)
      expect(ttl).toBeLessThanOrEqual(10 * 60_000)
    } finally {
      direct.disconnect()
    }
  })

  it('error: Redis down is 503 STORE_UNAVAILABLE, and sign-in works again once it is back', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    await redis.stop()
    const down = await call(redisServer.baseUrl, '/sign-in/nonce', { method: 'POST', headers })
    expect([down.status, codeOf(down)]).toEqual([503, 'STORE_UNAVAILABLE'])
    redis = await startRedis({ port: redis.port })
    await expect
      .poll(
        async () =>
          (await call(redisServer.baseUrl, '/sign-in/nonce', { method: 'POST', headers })).status,
        {
          timeout: 10_000,
        },
      )
      .toBe(201)
    const message = await evmMessage(account.address, {}, redisServer.baseUrl)
    const answer = await verify(
      message,
      await account.signMessage({ message }),
      redisServer.baseUrl,
    )
    expect(answer.status).toBe(200)
  })
})
