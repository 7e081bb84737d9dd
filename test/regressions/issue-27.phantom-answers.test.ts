// Issue 27, "wallet answers checked", for Phantom's deeplinks: the decrypted answer (public_key,
// session, signature) goes through the checks of every wallet answer (src/connectors/wallet-answers.ts).
// Random bad answers (fast-check), sealed with the real NaCl box for the page's key by the phone
// wallet double (test/support/phantom-phone-double.ts: no Phantom app runs here); each is refused
// (`malformed`, WALLET_ERROR), the flow is kept, and the wallet's genuine answer then settles it.
import { base58 } from '@scure/base'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import { createMemoryPhantomLinkStore } from '../../src/phantom-link/browser-store'
import { PhantomLinkConnector } from '../../src/phantom-link/face/connector'
import { createPhantomPhoneDouble } from '../support/phantom-phone-double'

/** The wallet the deeplinks go to (the one the other Phantom deeplink tests use). */
const WALLET_ID = 'phantom'
const PAGE = 'https://dapp.example/app'

function setup() {
  const phone = createPhantomPhoneDouble()
  const store = createMemoryPhantomLinkStore()
  const links: string[] = []
  const page = () =>
    new PhantomLinkConnector({
      walletId: WALLET_ID,
      baseUrl: 'https://phantom.app/ul/v1/',
      redirectLink: PAGE,
      appUrl: 'https://dapp.example',
      store,
      openLink: (url) => links.push(url),
    })
  /** The answer `value`, sealed for the last link's page key, on that link's redirect. */
  const sealed = (value: unknown) => {
    const link = new URL(links.at(-1) as string)
    return phone.sealFor(
      link.searchParams.get('dapp_encryption_public_key') ?? '',
      link.searchParams.get('redirect_link') ?? '',
      value,
    )
  }
  return { phone, links, page, sealed }
}

const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => base58.encode(b))
const notAKey = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 31 }).map((b) => base58.encode(b)),
  fc.uint8Array({ minLength: 33, maxLength: 64 }).map((b) => base58.encode(b)),
  fc.constant(`0x${'ab'.repeat(20)}`),
  fc.constant('not-base58-0OIl'),
  fc.constantFrom(null, 42, [], {}),
)
const notASession = fc.oneof(
  fc.constant(''),
  fc.constant('1'.repeat(1_025)),
  fc.constant('has spaces and 0OIl'),
  fc.constantFrom(null, 42, ['s'], {}),
)
const badConnect = fc.oneof(
  fc.record({ public_key: notAKey, session: fc.constant('3xSession') }),
  fc.record({ public_key: key, session: notASession }),
  // (A sealed `null` opens as nothing: refused as `forged`, see test/phantom-link.)
  fc.constantFrom('x', [], {}),
)
const notASignature = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 63 }).map((b) => ({ signature: base58.encode(b) })),
  fc.uint8Array({ minLength: 65, maxLength: 128 }).map((b) => ({ signature: base58.encode(b) })),
  fc.constant({ signature: `0x${'cd'.repeat(64)}` }),
  fc.constant({ signature: 'a'.repeat(1_500) }),
  fc.constantFrom('sig', { signature: 42 }, {}),
)

describe("issue 27: Phantom's deeplink answers are checked", () => {
  it('property: a connect answer without a 32-byte key or a session token is refused (malformed); the genuine one connects', async () => {
    await fc.assert(
      fc.asyncProperty(badConnect, async (answer) => {
        const s = setup()
        void s
          .page()
          .connect()
          .catch(() => {})
        const genuine = s.phone.handle(s.links.at(-1) as string)
        const refused = await s.page().resume({ url: s.sealed(answer) })
        expect(refused).toMatchObject({ status: 'refused', reason: 'malformed' })
        if (refused.status === 'refused')
          expect(isAppError(refused.error, 'WALLET_ERROR')).toBe(true)
        const next = s.page()
        expect(await next.resume({ url: genuine })).toMatchObject({
          status: 'connected',
          connection: { accounts: [s.phone.address] },
        })
      }),
      { numRuns: 40 },
    )
  })

  it('property: a signature that is not 64 bytes of base58 is refused (malformed); the genuine one verifies', async () => {
    await fc.assert(
      fc.asyncProperty(notASignature, async (answer) => {
        const s = setup()
        void s
          .page()
          .connect()
          .catch(() => {})
        const page = s.page()
        await page.resume({ url: s.phone.handle(s.links.at(-1) as string) })
        void page
          .request({ method: 'solana_signMessage', params: { message: 'Hello' } })
          .catch(() => {})
        const genuine = s.phone.handle(s.links.at(-1) as string)
        const refused = await s.page().resume({ url: s.sealed(answer) })
        expect(refused).toMatchObject({ status: 'refused', reason: 'malformed' })
        const result = await s.page().resume({ url: genuine })
        if (result.status !== 'signed') throw new Error(`not signed: ${result.status}`)
        expect(s.phone.verify(result.signature, new TextEncoder().encode('Hello'))).toBe(true)
        page.cancel()
      }),
      { numRuns: 30 },
    )
  })
})
