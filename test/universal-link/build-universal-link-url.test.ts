import { describe, expect, it } from 'vitest'
import { type AppError, isAppError } from '../../src/errors'
import {
  buildUniversalLinkUrl,
  SOLANA_SIGN_TRANSACTION_METHOD,
  UNIVERSAL_LINK_PARAMS,
  UNIVERSAL_LINK_VERSION,
  type UniversalLinkInputs,
} from '../../src/universal-link'

const LINK = 'https://wallet.example/ul/connect'
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const INPUTS: UniversalLinkInputs = {
  sessionId: 'c2Vzc2lvbi1pZC0xMjM0NTY3OA',
  nonce: 'bm9uY2UtMTIzNDU2Nzg5MA',
  chainId: SOLANA,
  callbackUrl: 'https://api.example.com',
  method: 'connect',
}

function expectInvalid(fn: () => unknown, field: string): AppError {
  let caught: unknown
  try {
    fn()
  } catch (error) {
    caught = error
  }
  expect(isAppError(caught, 'INVALID_CONFIG')).toBe(true)
  expect((caught as AppError).details?.[0]?.field).toBe(field)
  return caught as AppError
}

describe('universal link constants', () => {
  it('names every sc* parameter and is frozen', () => {
    expect(UNIVERSAL_LINK_PARAMS).toEqual({
      version: 'scVersion',
      sessionId: 'scSessionId',
      nonce: 'scNonce',
      chain: 'scChain',
      callback: 'scCallback',
      method: 'scMethod',
      payload: 'scPayload',
      returnUrl: 'scReturnUrl',
      dappName: 'scDappName',
      appKey: 'scAppKey',
    })
    expect(Object.isFrozen(UNIVERSAL_LINK_PARAMS)).toBe(true)
    expect(UNIVERSAL_LINK_VERSION).toBe(1)
    expect(SOLANA_SIGN_TRANSACTION_METHOD).toBe('solana_signTransaction')
  })
})

describe('buildUniversalLinkUrl', () => {
  it('adds the required parameters in a fixed order', () => {
    expect(buildUniversalLinkUrl(LINK, INPUTS)).toBe(
      'https://wallet.example/ul/connect?scVersion=1&scSessionId=c2Vzc2lvbi1pZC0xMjM0NTY3OA' +
        '&scNonce=bm9uY2UtMTIzNDU2Nzg5MA&scChain=solana%3A5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' +
        '&scMethod=connect&scCallback=https%3A%2F%2Fapi.example.com',
    )
  })

  it('adds every optional parameter, decodable by URLSearchParams', () => {
    const url = new URL(
      buildUniversalLinkUrl(LINK, {
        ...INPUTS,
        method: 'signTransaction',
        payload: 'AQID_-x',
        returnUrl: 'https://dapp.example/swap?step=2#top',
        dappName: 'My dApp & Friends + 100%',
        appKey: 'pk_live_123',
      }),
    )
    expect(Object.fromEntries(url.searchParams)).toEqual({
      scVersion: '1',
      scSessionId: INPUTS.sessionId,
      scNonce: INPUTS.nonce,
      scChain: SOLANA,
      scMethod: 'signTransaction',
      scCallback: 'https://api.example.com',
      scPayload: 'AQID_-x',
      scReturnUrl: 'https://dapp.example/swap?step=2#top',
      scDappName: 'My dApp & Friends + 100%',
      scAppKey: 'pk_live_123',
    })
  })

  it('encodes spaces as %20 so RFC 3986 decoders read them back too', () => {
    const out = buildUniversalLinkUrl(LINK, { ...INPUTS, dappName: 'A b+c' })
    expect(out).toContain('scDappName=A%20b%2Bc')
    const raw = out.split('scDappName=')[1]!.split('&')[0]!
    expect(decodeURIComponent(raw)).toBe('A b+c')
  })

  it('keeps the link path, its own query byte for byte, and its fragment', () => {
    const out = buildUniversalLinkUrl('https://wallet.example/ul/v2/connect?ref=a%20b&flag#frag', {
      ...INPUTS,
      method: 'signMessage',
    })
    expect(out.startsWith('https://wallet.example/ul/v2/connect?ref=a%20b&flag&scVersion=1&')).toBe(
      true,
    )
    expect(out.endsWith('#frag')).toBe(true)
    expect(new URL(out).searchParams.get('scMethod')).toBe('signMessage')
  })

  it('replaces sc* parameters the link already carries instead of duplicating them', () => {
    const out = buildUniversalLinkUrl(
      'https://wallet.example/ul?scSessionId=evil&scVersion=9&sc%43hain=x&keep=1',
      INPUTS,
    )
    const params = new URL(out).searchParams
    expect(params.getAll('scSessionId')).toEqual([INPUTS.sessionId])
    expect(params.getAll('scVersion')).toEqual(['1'])
    expect(params.getAll('scChain')).toEqual([SOLANA])
    expect(params.get('keep')).toBe('1')
  })

  it('never puts a smuggled session token in the URL', () => {
    const token = 'c2Vzc2lvbi10b2tlbi1zZWNyZXQtdmFsdWUtMzItYnl0ZXM'
    const smuggled = { ...INPUTS, sessionToken: token, token } as UniversalLinkInputs
    const out = buildUniversalLinkUrl(LINK, smuggled)
    expect(out).not.toContain(token)
    expect(out).not.toMatch(/token/i)
    for (const name of new URL(out).searchParams.keys()) {
      expect(Object.values(UNIVERSAL_LINK_PARAMS)).toContain(name)
    }
  })

  it('accepts an upper-case HTTPS scheme', () => {
    expect(buildUniversalLinkUrl('HTTPS://wallet.example/ul', INPUTS)).toMatch(
      /^https:\/\/wallet\.example\/ul\?scVersion=1&/,
    )
  })

  it.each([
    ['http', 'http://wallet.example/ul'],
    ['relative path', '/ul/connect'],
    ['protocol-relative', '//wallet.example/ul'],
    ['no scheme', 'wallet.example/ul'],
    ['garbage', 'not a url'],
    ['empty', ''],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['custom scheme', 'phantom://ul/connect'],
    ['https without slashes', 'https:wallet.example'],
    ['https with backslashes', 'https:\\\\wallet.example'],
    ['leading space', ' https://wallet.example'],
    ['no host', 'https://'],
    ['bad port', 'https://wallet.example:99999/'],
    ['not a string', 42],
    ['undefined', undefined],
  ])('refuses a universal link that is %s', (_, link) => {
    expectInvalid(() => buildUniversalLinkUrl(link as string, INPUTS), 'universalLink')
  })

  it.each([
    ['ftp', 'ftp://api.example.com'],
    ['ws', 'wss://api.example.com'],
    ['javascript:', 'javascript:alert(1)'],
    ['relative', '/api'],
    ['garbage', 'api.example.com'],
    ['empty', ''],
    ['missing', undefined],
  ])('refuses a callbackUrl that is %s', (_, callbackUrl) => {
    expectInvalid(
      () => buildUniversalLinkUrl(LINK, { ...INPUTS, callbackUrl: callbackUrl as string }),
      'callbackUrl',
    )
  })

  it('accepts an http callbackUrl (local development)', () => {
    const out = buildUniversalLinkUrl(LINK, { ...INPUTS, callbackUrl: 'http://127.0.0.1:8787' })
    expect(new URL(out).searchParams.get('scCallback')).toBe('http://127.0.0.1:8787')
  })

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['relative', '/back'],
    ['empty', ''],
  ])('refuses a returnUrl that is %s', (_, returnUrl) => {
    expectInvalid(() => buildUniversalLinkUrl(LINK, { ...INPUTS, returnUrl }), 'returnUrl')
  })

  it.each([
    ['sessionId', ''],
    ['sessionId', '   '],
    ['sessionId', undefined],
    ['nonce', ''],
    ['nonce', 7],
    ['chainId', 'solana'],
    ['chainId', 'EIP155:1'],
    ['chainId', ''],
    ['chainId', undefined],
    ['method', 'sign'],
    ['method', undefined],
    ['payload', ''],
    ['payload', 'not base64url!'],
    ['payload', 'AQID+/=='],
    ['dappName', ''],
    ['appKey', 123],
  ])('refuses %s = %j', (field, value) => {
    expectInvalid(
      () => buildUniversalLinkUrl(LINK, { ...INPUTS, [field]: value } as UniversalLinkInputs),
      field,
    )
  })

  it('requires a payload for signTransaction', () => {
    expectInvalid(
      () => buildUniversalLinkUrl(LINK, { ...INPUTS, method: 'signTransaction' }),
      'payload',
    )
  })

  it.each([
    ['null', null],
    ['a string', 'inputs'],
  ])('refuses inputs that are %s', (_, inputs) => {
    expectInvalid(() => buildUniversalLinkUrl(LINK, inputs as never), 'inputs')
  })
})
