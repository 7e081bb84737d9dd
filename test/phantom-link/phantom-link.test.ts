import { hsalsa, xsalsa20poly1305 } from '@noble/ciphers/salsa.js'
import { bytesToHex, hexToBytes } from '@noble/ciphers/utils.js'
import { base58, base64 } from '@scure/base'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../src/errors'
import { boxBefore, createBoxKeyPair, openJson, sealJson } from '../../src/phantom-link/box'
import { createMemoryPhantomLinkStore } from '../../src/phantom-link/browser-store'
import {
  PhantomLinkConnector,
  type PhantomLinkConnectorOptions,
} from '../../src/phantom-link/face/connector'
import { parsePhantomLinkState } from '../../src/phantom-link/persisted'
import { PHANTOM_LINK_FLOW_PARAM, readPhantomAnswer } from '../../src/phantom-link/protocol'
import { createPhantomPhoneDouble } from '../support/phantom-phone-double'

const PAGE = 'https://dapp.example/app?tab=swap'

/** A "page": a connector over the shared store whose openLink hands the link to the phone double. */
function setup(overrides: Partial<PhantomLinkConnectorOptions> = {}) {
  const phone = createPhantomPhoneDouble()
  const store = createMemoryPhantomLinkStore()
  const links: string[] = []
  const page = (extra: Partial<PhantomLinkConnectorOptions> = {}) =>
    new PhantomLinkConnector({
      walletId: 'phantom',
      baseUrl: 'https://phantom.app/ul/v1/',
      redirectLink: PAGE,
      appUrl: 'https://dapp.example',
      store,
      openLink: (url) => links.push(url),
      ...overrides,
      ...extra,
    })
  /** The phone answers the last link opened. */
  const answerLast = () => phone.handle(links.at(-1) as string)
  return { phone, store, links, page, answerLast }
}

/** Connected through a navigation: page 1 opens the link, page 2 (a new connector) resumes. */
async function connected(s: ReturnType<typeof setup>) {
  const first = s.page()
  void first.connect().catch(() => {})
  const back = s.answerLast()
  const second = s.page()
  const result = await second.resume({ url: back })
  expect(result.status).toBe('connected')
  return second
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the box (x25519 + NaCl box from @noble)', () => {
  it('matches NaCl’s published vectors: box.before (firstkey) and the box of the 131-byte message', () => {
    // "Cryptography in NaCl" (Bernstein), tests/box.c: alicesk, bobpk, firstkey, nonce, m, c.
    const alicesk = hexToBytes('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a')
    const bobpk = hexToBytes('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f')
    const key = boxBefore(bobpk, alicesk)
    expect(bytesToHex(key)).toBe('1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389')
    const nonce = hexToBytes('69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37')
    const m = hexToBytes(
      'be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a1ac728d45e6c61296cdc3c01233561f41db66cce314adb310e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f937763848645e0705',
    )
    expect(bytesToHex(xsalsa20poly1305(key, nonce).encrypt(m))).toBe(
      'f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce48332ea7164d96a4476fb8c531a1186ac0dfc17c98dce87b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab932164548e526ae90224368517acfeabd6bb3732bc0e9da99832b61ca01b6de56244a9e88d5f9b37973f622a43d14a6599b1f654cb45a74e355a5',
    )
    expect(hsalsa).toBeTypeOf('function')
  })

  it('both sides derive one key; a wrong key or nonce opens nothing', () => {
    const dapp = createBoxKeyPair()
    const wallet = createBoxKeyPair()
    const k1 = boxBefore(base58.decode(wallet.publicKey), base58.decode(dapp.secretKey))
    const k2 = boxBefore(base58.decode(dapp.publicKey), base58.decode(wallet.secretKey))
    expect(bytesToHex(k1)).toBe(bytesToHex(k2))
    const sealed = sealJson(k1, { hello: 'world' })
    expect(openJson(k2, sealed.nonce, sealed.data)).toEqual({ hello: 'world' })
    const other = boxBefore(
      base58.decode(createBoxKeyPair().publicKey),
      base58.decode(dapp.secretKey),
    )
    expect(openJson(other, sealed.nonce, sealed.data)).toBeNull()
    expect(openJson(k1, base58.encode(new Uint8Array(24)), sealed.data)).toBeNull()
    expect(openJson(k1, sealed.nonce, '0OIl')).toBeNull()
  })
})

describe('Phantom deeplinks v1: the round trip through the phone double', () => {
  it('connect opens {baseUrl}connect with the documented parameters and resumes connected after the navigation', async () => {
    const s = setup()
    const first = s.page()
    const pending = first.connect()
    const link = new URL(s.links[0] as string)
    expect(`${link.origin}${link.pathname}`).toBe('https://phantom.app/ul/v1/connect')
    expect(link.searchParams.get('app_url')).toBe('https://dapp.example')
    expect(link.searchParams.get('cluster')).toBe('mainnet-beta')
    expect(base58.decode(link.searchParams.get('dapp_encryption_public_key') ?? '')).toHaveLength(
      32,
    )
    const redirect = new URL(link.searchParams.get('redirect_link') ?? '')
    expect(redirect.searchParams.get('tab')).toBe('swap')
    expect(redirect.searchParams.get(PHANTOM_LINK_FLOW_PARAM)).toBeTruthy()
    // The stored record is versioned, JSON-safe and holds no secret but the dApp's x25519 key.
    const record = s.store.load()
    expect(parsePhantomLinkState(JSON.parse(JSON.stringify(record)))).toEqual(record)
    expect(record?.snapshot.value).toBe('awaitingConnect')

    const back = s.answerLast()
    expect(readPhantomAnswer(back)?.kind).toBe('data')
    // Same page (Node): the waiting connect() settles; a new page resumes from the store.
    const second = s.page()
    const resumed = await second.resume({ url: back })
    expect(resumed).toMatchObject({
      status: 'connected',
      connection: { accounts: [s.phone.address] },
    })
    expect(await second.reconnect()).toMatchObject({
      accounts: [s.phone.address],
      namespace: 'solana',
    })
    // A later page (restored from the store) refuses the same answer again.
    expect(await s.page().resume({ url: back })).toMatchObject({
      status: 'refused',
      reason: 'replayed',
    })
    first.cancel()
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' })
  })

  it('the same page: connect() settles when resume({ url }) takes the answer', async () => {
    const s = setup()
    const page = s.page()
    const pending = page.connect()
    await page.resume({ url: s.answerLast() })
    await expect(pending).resolves.toMatchObject({
      accounts: [s.phone.address],
      walletId: 'phantom',
    })
  })

  it('signMessage: the wallet gets the session and the message; the signature verifies with the account key', async () => {
    const s = setup()
    const page = await connected(s)
    const signing = page.request({
      method: 'solana_signMessage',
      params: { message: 'Hello, Phantom' },
    })
    const request = s.links.at(-1) as string
    expect(new URL(request).pathname).toBe('/ul/v1/signMessage')
    const back = s.phone.handle(request)
    expect(s.phone.requests.at(-1)?.payload).toMatchObject({ display: 'utf8' })
    expect(typeof s.phone.requests.at(-1)?.payload?.session).toBe('string')
    // The page navigates: the next page resumes with the answer.
    const next = s.page()
    const result = await next.resume({ url: back })
    if (result.status !== 'signed') throw new Error(`not signed: ${result.status}`)
    expect(s.phone.verify(result.signature, new TextEncoder().encode('Hello, Phantom'))).toBe(true)
    expect(result.connection.accounts).toEqual([s.phone.address])
    page.cancel()
    await expect(signing).rejects.toMatchObject({ code: 'ABORTED' })
  })

  it('signAndSendTransaction: base64 in, base58 to the wallet, its signature back; then disconnect ends the session', async () => {
    const s = setup()
    const page = await connected(s)
    const tx = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])
    const sending = page.request<{ signature: string }>({
      method: 'solana_signAndSendTransaction',
      params: { transaction: base64.encode(tx) },
    })
    const back = s.answerLast()
    expect(s.phone.requests.at(-1)?.payload?.transaction).toBe(base58.encode(tx))
    await page.resume({ url: back })
    const { signature } = await sending
    expect(s.phone.verify(signature, tx)).toBe(true)
    expect(s.phone.sessionCount()).toBe(1)
    await page.disconnect()
    expect(new URL(s.links.at(-1) as string).pathname).toBe('/ul/v1/disconnect')
    s.answerLast()
    expect(s.phone.sessionCount()).toBe(0)
    expect(page.getActor()?.getSnapshot().value).toBe('idle')
    expect(s.store.load()).toBeNull()
    expect(page.getConnection()).toBeNull()
    await expect(
      page.request({ method: 'solana_signMessage', params: { message: 'x' } }),
    ).rejects.toMatchObject({ code: 'NOT_CONNECTED' })
  })

  it('Solflare: the same protocol under https://solflare.com/ul/v1/', async () => {
    const phone = createPhantomPhoneDouble({ baseUrl: 'https://solflare.com/ul/v1/' })
    const links: string[] = []
    const page = new PhantomLinkConnector({
      walletId: 'solflare',
      baseUrl: 'https://solflare.com/ul/v1/',
      redirectLink: PAGE,
      openLink: (url) => links.push(url),
      chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    })
    const pending = page.connect()
    expect(new URL(links[0] as string).searchParams.get('cluster')).toBe('devnet')
    await page.resume({ url: phone.handle(links[0] as string) })
    await expect(pending).resolves.toMatchObject({
      walletId: 'solflare',
      accounts: [phone.address],
    })
  })
})

describe('failure twins: each ends with a typed error and the next call works', () => {
  it('behavior: the wallet rejects (4001) → USER_REJECTED; a wallet error (-32603) → WALLET_ERROR', async () => {
    const s = setup()
    const page = s.page()
    s.phone.setMode('reject')
    const rejected = page.connect()
    const result = await page.resume({ url: s.answerLast() })
    expect(result).toMatchObject({ status: 'failed', error: { code: 'USER_REJECTED' } })
    await expect(rejected).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(s.store.load()).toBeNull()
    s.phone.setMode('approve')
    const ok = page.connect()
    await page.resume({ url: s.answerLast() })
    await expect(ok).resolves.toMatchObject({ accounts: [s.phone.address] })
    // A signature the wallet fails keeps the connection.
    s.phone.setMode('error')
    const failing = page.request({ method: 'solana_signMessage', params: { message: 'm' } })
    expect(await page.resume({ url: s.answerLast() })).toMatchObject({
      status: 'failed',
      error: { code: 'WALLET_ERROR' },
    })
    await expect(failing).rejects.toMatchObject({ code: 'WALLET_ERROR' })
    s.phone.setMode('reject')
    const declined = page.request({ method: 'solana_signMessage', params: { message: 'm' } })
    await page.resume({ url: s.answerLast() })
    await expect(declined).rejects.toMatchObject({ code: 'USER_REJECTED' })
    s.phone.setMode('approve')
    const signing = page.request<{ signature: string }>({
      method: 'solana_signMessage',
      params: { message: 'm' },
    })
    await page.resume({ url: s.answerLast() })
    expect(s.phone.verify((await signing).signature, new TextEncoder().encode('m'))).toBe(true)
  })

  it('behavior: the wallet no longer knows the session (4100) → NOT_CONNECTED and disconnected', async () => {
    const s = setup()
    const page = await connected(s)
    const seen = vi.fn()
    page.subscribe(seen)
    const other = createPhantomPhoneDouble() // a wallet that never saw this session
    const signing = page.request({ method: 'solana_signMessage', params: { message: 'm' } })
    const link = s.links.at(-1) as string
    const answer = other.handle(link)
    expect(await page.resume({ url: answer })).toMatchObject({
      status: 'failed',
      error: { code: 'NOT_CONNECTED' },
    })
    await expect(signing).rejects.toMatchObject({ code: 'NOT_CONNECTED' })
    expect(seen).toHaveBeenCalledWith({ type: 'disconnect' })
    expect(page.getConnection()).toBeNull()
    expect(page.getActor()?.getSnapshot().value).toBe('idle')
    expect(s.store.load()).toBeNull()
  })

  it('behavior: disconnect() while a signature is asked ends it (ABORTED) and forgets the flow', async () => {
    const s = setup()
    const page = await connected(s)
    const signing = page.request({ method: 'solana_signMessage', params: { message: 'm' } })
    await page.disconnect()
    await expect(signing).rejects.toMatchObject({ code: 'ABORTED' })
    expect(page.getActor()?.getSnapshot().value).toBe('idle')
    expect(s.store.load()).toBeNull()
  })

  it('behavior: a second connect() while the first waits replaces it (ABORTED); the new one connects', async () => {
    const s = setup()
    const page = s.page()
    const first = page.connect()
    const second = page.connect()
    await expect(first).rejects.toMatchObject({ code: 'ABORTED' })
    expect(s.links).toHaveLength(2)
    // The first link's answer names the replaced flow: refused.
    expect(await page.resume({ url: s.phone.handle(s.links[0] as string) })).toMatchObject({
      status: 'refused',
      reason: 'other-flow',
    })
    await page.resume({ url: s.answerLast() })
    await expect(second).resolves.toMatchObject({ accounts: [s.phone.address] })
  })

  it('error: the wallet never answers → TIMEOUT at answerMs, also after a navigation; cancel() → ABORTED', async () => {
    vi.useFakeTimers()
    const s = setup({ answerMs: 60_000 })
    const page = s.page()
    const hanging = page.connect()
    const check = expect(hanging).rejects.toMatchObject({ code: 'TIMEOUT' })
    await vi.advanceTimersByTimeAsync(60_000)
    await check
    // Restored after a navigation: the deadline is absolute and restarts with the flow.
    const first = s.page()
    void first.connect().catch(() => {})
    await vi.advanceTimersByTimeAsync(30_000)
    const restored = s.page()
    expect(await restored.resume({ url: PAGE })).toEqual({ status: 'pending', method: 'connect' })
    await vi.advanceTimersByTimeAsync(29_999)
    expect(restored.getActor()?.getSnapshot().value).toBe('awaitingConnect')
    await vi.advanceTimersByTimeAsync(1)
    expect(restored.getActor()?.getSnapshot().value).toBe('idle')
    expect(restored.getActor()?.getSnapshot().context.last?.error?.code).toBe('TIMEOUT')
    expect(s.store.load()).toBeNull()
    // cancel() while the wallet is asked
    const cancelled = restored.connect()
    restored.cancel()
    await expect(cancelled).rejects.toMatchObject({ code: 'ABORTED' })
    vi.useRealTimers()
    const ok = restored.connect()
    await restored.resume({ url: s.answerLast() })
    await expect(ok).resolves.toMatchObject({ accounts: [s.phone.address] })
    // A signature that never comes back times out and keeps the connection.
    vi.useFakeTimers()
    const sign = restored.request({ method: 'solana_signMessage', params: { message: 'm' } })
    const timedOut = expect(sign).rejects.toMatchObject({ code: 'TIMEOUT' })
    await vi.advanceTimersByTimeAsync(60_000)
    await timedOut
    expect(restored.getConnection()?.accounts).toEqual([s.phone.address])
    const cancelSign = restored.request({ method: 'solana_signMessage', params: { message: 'm' } })
    restored.cancel()
    await expect(cancelSign).rejects.toMatchObject({ code: 'ABORTED' })
    expect(restored.getActor()?.getSnapshot().value).toBe('connected')
  })

  /** Each refused answer leaves the request waiting; the genuine answer then settles it. */
  const refusals: Array<[string, (back: string, s: ReturnType<typeof setup>) => string, string]> = [
    [
      'forged key (another phantom_encryption_public_key)',
      (back) => withParam(back, 'phantom_encryption_public_key', createBoxKeyPair().publicKey),
      'forged',
    ],
    [
      'wrong nonce',
      (back) => withParam(back, 'nonce', base58.encode(new Uint8Array(24).fill(7))),
      'forged',
    ],
    ['garbage data', (back) => withParam(back, 'data', 'not-base58-0OIl'), 'forged'],
    [
      'an answer for another flow',
      (back) => withParam(back, PHANTOM_LINK_FLOW_PARAM, 'someoneelse'),
      'other-flow',
    ],
    [
      'a sealed answer that is not the method’s',
      (back, s) => {
        const link = new URL(s.links.at(-1) as string)
        const dappKey = link.searchParams.get('dapp_encryption_public_key') ?? ''
        const sealed = new URL(
          s.phone.sealFor(dappKey, link.searchParams.get('redirect_link') ?? '', { nope: 1 }),
        )
        return withParam(
          withParam(back, 'data', sealed.searchParams.get('data') ?? ''),
          'nonce',
          sealed.searchParams.get('nonce') ?? '',
        )
      },
      'malformed',
    ],
  ]

  it.each(refusals)(
    'error: %s on connect is refused; the flow is kept and the real answer connects',
    async (_, forge, reason) => {
      const s = setup()
      const first = s.page()
      void first.connect().catch(() => {})
      const back = s.answerLast()
      const page = s.page()
      const refused = await page.resume({ url: forge(back, s) })
      expect(refused).toMatchObject({ status: 'refused', reason })
      if (refused.status === 'refused') expect(isAppError(refused.error, 'WALLET_ERROR')).toBe(true)
      expect(s.store.load()?.snapshot.value).toBe('awaitingConnect')
      expect(await s.page().resume({ url: back })).toMatchObject({ status: 'connected' })
    },
  )

  it.each(refusals)(
    'error: %s on signMessage is refused; the real answer signs',
    async (_, forge, reason) => {
      const s = setup()
      const page = await connected(s)
      const signing = page.request<{ signature: string }>({
        method: 'solana_signMessage',
        params: { message: 'm' },
      })
      const back = s.answerLast()
      expect(await page.resume({ url: forge(back, s) })).toMatchObject({
        status: 'refused',
        reason,
      })
      expect(page.getActor()?.getSnapshot().value).toBe('awaitingSignature')
      expect(await page.resume({ url: back })).toMatchObject({ status: 'signed' })
      expect(s.phone.verify((await signing).signature, new TextEncoder().encode('m'))).toBe(true)
    },
  )

  it('error: a replayed answer is refused, also after the page navigated again', async () => {
    const s = setup()
    const page = await connected(s)
    const signing = page.request({ method: 'solana_signMessage', params: { message: 'm' } })
    const back = s.answerLast()
    expect(await page.resume({ url: back })).toMatchObject({ status: 'signed' })
    await signing
    expect(await page.resume({ url: back })).toMatchObject({
      status: 'refused',
      reason: 'replayed',
    })
    // The next request: the old answer cannot stand in for it.
    const next = page.request({ method: 'solana_signMessage', params: { message: 'n' } })
    expect(await s.page().resume({ url: back })).toMatchObject({
      status: 'refused',
      reason: 'replayed',
    })
    expect(await page.resume({ url: back })).toMatchObject({
      status: 'refused',
      reason: 'replayed',
    })
    await page.resume({ url: s.answerLast() })
    await expect(next).resolves.toBeTruthy()
    // An answer with nothing waiting (no stored flow) is refused too.
    const empty = setup()
    expect(await empty.page().resume({ url: back })).toMatchObject({
      status: 'refused',
      reason: 'no-request',
    })
    expect(await empty.page().resume({ url: PAGE })).toEqual({ status: 'none' })
  })

  it('a stored record of another version or shape is not restored', () => {
    const s = setup()
    void s
      .page()
      .connect()
      .catch(() => {})
    const record = JSON.parse(JSON.stringify(s.store.load()))
    expect(parsePhantomLinkState(record)).not.toBeNull()
    expect(parsePhantomLinkState({ ...record, formatVersion: 2 })).toBeNull()
    // A record of the first release names it `version`: read, and of version 1 only.
    const { formatVersion, ...firstRelease } = record
    expect(parsePhantomLinkState({ ...firstRelease, version: formatVersion })).toEqual(record)
    expect(parsePhantomLinkState({ ...firstRelease, version: 2 })).toBeNull()
    expect(
      parsePhantomLinkState({ ...record, snapshot: { ...record.snapshot, value: 'idle' } }),
    ).toBeNull()
    expect(
      parsePhantomLinkState({
        ...record,
        snapshot: { ...record.snapshot, context: { ...record.snapshot.context, seenNonces: 'x' } },
      }),
    ).toBeNull()
  })

  it('the dApp’s x25519 secret and the wallet session never reach the inspector', async () => {
    const events: string[] = []
    const s = setup({ inspect: (event) => events.push(JSON.stringify(event)) })
    const page = await connected(s)
    const signing = page.request({ method: 'solana_signMessage', params: { message: 'm' } })
    await page.resume({ url: s.answerLast() })
    const { signature } = (await signing) as { signature: string }
    const context = page.getActor()?.getSnapshot().context
    const all = events.join('\n')
    expect(events.length).toBeGreaterThan(3)
    for (const secret of [context?.dappSecretKey, context?.session, signature]) {
      expect(secret).toBeTruthy()
      expect(all).not.toContain(secret as string)
    }
    expect(all).toContain('[redacted]')
  })

  it('params of the wrong shape are INVALID_CONFIG, other methods UNSUPPORTED_METHOD, before any link opens', async () => {
    const s = setup()
    const page = await connected(s)
    const opened = s.links.length
    await expect(
      page.request({ method: 'solana_signMessage', params: { message: 1 } }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    await expect(
      page.request({ method: 'solana_signAndSendTransaction', params: { transaction: '***' } }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    await expect(page.request({ method: 'solana_signIn' })).rejects.toMatchObject({
      code: 'UNSUPPORTED_METHOD',
    })
    expect(s.links.length).toBe(opened)
    expect(
      () => new PhantomLinkConnector({ walletId: 'phantom', baseUrl: 'http://phantom.app/ul/v1/' }),
    ).toThrow(/HTTPS/)
  })
})

function withParam(href: string, name: string, value: string): string {
  const url = new URL(href)
  url.searchParams.set(name, value)
  return url.toString()
}
