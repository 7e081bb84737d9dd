import fc from 'fast-check'
import { clearPartnerWallets, registerPartnerWallets } from 'scope-connect'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from 'scope-connect/testing'
import { ConfigResponseSchema, PartnerWalletSchema, SessionResultSchema } from 'scope-connect/wire'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { ProjectsConfigError, parseProjectsConfig } from '../src/config/projects'
import { projectConfigBody } from '../src/routes/config'
import { createMemoryStore, type MemoryStore } from '../src/store/memory'
import { startTestBackend } from '../src/testing'
import { call, codeOf } from './support/http'
import { startTestServer, TEST_APP_KEY, TEST_PROJECT, type TestServer } from './support/server'
import { createTestSession, getResult, postCallback } from './support/sessions'
import { evmWallet } from './support/wallets'

/** A partner wallet as a project's config declares it (the test kit's, a copy). */
const partner = () => structuredClone(TEST_PARTNER_WALLET) as never as Record<string, unknown>

function problemsOf(value: unknown): string[] {
  try {
    parseProjectsConfig(value)
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectsConfigError)
    return (error as ProjectsConfigError).problems
  }
  throw new Error('expected the projects file to be refused')
}

const withPartners = (partnerWallets: unknown[], wallets = TEST_PROJECT.wallets) => ({
  projects: [{ ...TEST_PROJECT, wallets, partnerWallets }],
})

afterEach(() => clearPartnerWallets())

describe('partner wallets in the projects file', () => {
  it('a project may declare partner wallets and name them in its wallets', () => {
    const config = parseProjectsConfig(
      withPartners([partner()], [...TEST_PROJECT.wallets, TEST_PARTNER_WALLET_ID]),
    )
    expect(config.projects[0]?.partnerWallets?.[0]?.id).toBe(TEST_PARTNER_WALLET_ID)
  })

  it('regression: a partner registered in this process (a Client loaded a config) is not taken for a built-in', () => {
    registerPartnerWallets([TEST_PARTNER_WALLET])
    const config = withPartners([partner()], [TEST_PARTNER_WALLET_ID])
    expect(parseProjectsConfig(config).projects[0]?.wallets).toEqual([TEST_PARTNER_WALLET_ID])
    expect(problemsOf(withPartners([], [TEST_PARTNER_WALLET_ID]))).toEqual([
      `projects[0].wallets[0]: unknown wallet ${TEST_PARTNER_WALLET_ID}`,
    ])
  })

  it('a bad partner entry is a load error naming the field, never a crash', async () => {
    const bad = (patch: object) => problemsOf(withPartners([{ ...partner(), ...patch }]))
    expect(
      bad({ mobile: { universalLink: 'http://w.example/ul', namespaces: ['eip155'] } })[0],
    ).toMatch(/^projects\[0\]\.partnerWallets\[0\]\.mobile\.universalLink: /)
    expect(bad({ relay: { namespaces: ['bitcoin'] } })[0]).toMatch(
      /^projects\[0\]\.partnerWallets\[0\]\.relay\.namespaces\[0\]: /,
    )
    expect(bad({ id: 'Not A Slug' })[0]).toMatch(/^projects\[0\]\.partnerWallets\[0\]\.id: /)
    expect(bad({ name: '' })[0]).toMatch(/^projects\[0\]\.partnerWallets\[0\]\.name: /)
    expect(bad({ icon: 'javascript:alert(1)' })[0]).toMatch(
      /^projects\[0\]\.partnerWallets\[0\]\.icon: /,
    )
    expect(bad({ universalLink: 'https://typo.example' })[0]).toMatch(
      /^projects\[0\]\.partnerWallets\[0\]: .*universalLink/,
    )
    expect(bad({ id: 'phantom' })).toEqual([
      "projects[0].partnerWallets[0].id: phantom is a built-in wallet's id (a partner needs its own)",
    ])
    expect(bad({ mobile: undefined, relay: undefined })).toEqual([
      'projects[0].partnerWallets[0]: declares neither mobile nor relay',
    ])
    expect(problemsOf(withPartners([partner(), partner()]))).toEqual([
      'projects[0].partnerWallets[1].id: duplicate partner wallet id',
    ])
    // A wallets entry names a built-in wallet or a partner this project declares.
    expect(problemsOf(withPartners([], ['metamask', TEST_PARTNER_WALLET_ID]))).toEqual([
      `projects[0].wallets[1]: unknown wallet ${TEST_PARTNER_WALLET_ID}`,
    ])
    expect(problemsOf(withPartners([null]))[0]).toMatch(/^projects\[0\]\.partnerWallets\[0\]: /)
    await expect(
      buildApp({ projects: withPartners([{ ...partner(), id: 'metamask' }]) as never }),
    ).rejects.toThrow('projects[0].partnerWallets[0].id: metamask')
  })

  it('property: every entry the server accepts, the library registers; every entry the library refuses, the server refuses', () => {
    // Mostly good values, a few bad ones: both sides of the rule get explored.
    const pick = <T>(good: T[], bad: unknown[]) =>
      fc.oneof(
        { arbitrary: fc.constantFrom(...good), weight: 6 },
        { arbitrary: fc.constantFrom(...bad), weight: 1 },
      )
    const nsList = pick(
      [['eip155'], ['solana'], ['eip155', 'solana'], ['solana', 'solana']],
      [[], ['bitcoin'], 'eip155', Array(9).fill('eip155')],
    )
    const url = pick(
      ['https://w.example/ul/', 'https://w.example'],
      ['http://w.example/', 'https://', 'ftp://x', 'https://w.example/a b', 7],
    )
    const entry = fc.record(
      {
        id: pick(['partner-a', 'p2'], ['phantom', '', 'Bad', '-x', 'a'.repeat(65), 1]),
        name: pick(['Partner', 'P'], ['', 'x'.repeat(201), null]),
        icon: pick(['https://w.example/i.png', 'data:image/png;base64,AA'], ['http://x/i.png', '']),
        homepage: url,
        namespaces: nsList,
        mobile: pick(
          [{ universalLink: 'https://w.example/ul/', namespaces: ['eip155'] }],
          [
            { universalLink: 'http://x', namespaces: ['eip155'] },
            { universalLink: 'https://w.example/ul/', namespaces: [] },
            null,
            'x',
          ],
        ),
        relay: pick(
          [{ namespaces: ['solana'] }, { namespaces: ['eip155', 'solana'] }],
          [{ namespaces: ['bitcoin'] }, null, {}],
        ),
      },
      { requiredKeys: [] },
    )
    const counts = { accepted: 0, refused: 0 }
    fc.assert(
      fc.property(entry, (value) => {
        let accepted = true
        try {
          const project = parseProjectsConfig(withPartners([value])).projects[0]!
          // What GET /config would answer: a valid body whose partners the library registers.
          const body = ConfigResponseSchema.parse(projectConfigBody(project))
          expect(registerPartnerWallets(body.partnerWallets as never)).toHaveLength(1)
          clearPartnerWallets()
          counts.accepted++
        } catch (error) {
          expect(error).toBeInstanceOf(ProjectsConfigError)
          accepted = false
          counts.refused++
        }
        let registered = true
        try {
          registerPartnerWallets([value as never])
        } catch (error) {
          expect((error as { code?: string }).code).toBe('INVALID_CONFIG')
          registered = false
        }
        clearPartnerWallets()
        if (accepted) expect(registered).toBe(true)
        if (!registered) expect(accepted).toBe(false)
        expect(PartnerWalletSchema.safeParse(value).success || !accepted).toBe(true)
      }),
      { numRuns: 300 },
    )
    expect(counts.accepted).toBeGreaterThan(10)
    expect(counts.refused).toBeGreaterThan(10)
  })
})

describe('partner wallets on the wire', () => {
  let server: TestServer
  let store: MemoryStore
  beforeAll(async () => {
    store = createMemoryStore()
    server = await startTestServer({
      store,
      projects: withPartners(
        [partner()],
        [...TEST_PROJECT.wallets, TEST_PARTNER_WALLET_ID],
      ) as never,
    })
  })
  afterAll(async () => {
    await server.close()
    await store.close()
  })

  it('GET /config returns them as partnerWallets (and in wallets), and the library registers them', async () => {
    const answer = await call(server.baseUrl, '/config', { headers: { 'x-app-key': TEST_APP_KEY } })
    expect(answer.status).toBe(200)
    const body = ConfigResponseSchema.parse(answer.body)
    expect(body.partnerWallets).toEqual([TEST_PARTNER_WALLET])
    expect(body.wallets.at(-1)).toEqual({
      walletId: TEST_PARTNER_WALLET_ID,
      name: 'Scope Test Wallet',
      namespaces: ['eip155', 'solana'],
    })
    const [info] = registerPartnerWallets(body.partnerWallets as never)
    expect(info?.mobile?.universalLink).toBe(TEST_PARTNER_WALLET.mobile?.universalLink)
  })

  it('a universal-link session for the partner slug is accepted as a built-in one is; an unknown slug is not', async () => {
    const session = await createTestSession(server.baseUrl, {
      caip2Chain: 'eip155:1',
      walletSlug: TEST_PARTNER_WALLET_ID,
    })
    const wallet = evmWallet()
    const connected = await postCallback(server.baseUrl, store, '/callback/connect', {
      sessionId: session.sessionId,
      walletSlug: TEST_PARTNER_WALLET_ID,
      caip2Chain: 'eip155:1',
      walletAddress: wallet.address,
    })
    expect(connected.status).toBe(204)
    const result = SessionResultSchema.parse((await getResult(server.baseUrl, session)).body)
    expect(result).toMatchObject({ status: 'connected', walletAddress: wallet.address })
    const other = await call(server.baseUrl, '/sessions', {
      body: { caip2Chain: 'eip155:1', walletSlug: 'other-partner' },
      headers: { 'x-app-key': TEST_APP_KEY },
    })
    expect([other.status, codeOf(other)]).toEqual([403, 'WALLET_NOT_ENABLED'])
  })

  it('the test backend declares the test kit partner wallet; GET /config answers 200 with it', async () => {
    const backend = await startTestBackend()
    try {
      const answer = await call(backend.baseUrl, '/config', {
        headers: { 'x-app-key': backend.appKey },
      })
      expect(answer.status).toBe(200)
      const body = ConfigResponseSchema.parse(answer.body)
      expect(body.partnerWallets).toEqual([TEST_PARTNER_WALLET])
      expect(body.wallets.map((w) => w.walletId)).toContain(TEST_PARTNER_WALLET_ID)
    } finally {
      await backend.close()
    }
  })
})
