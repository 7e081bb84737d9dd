import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  addEthereumChainParameter,
  connectorKindForWallet,
  createConnectorForWallet,
  createMetaMaskSdkProviderGetter,
  Eip6963Connector,
  findSolanaStandardWallet,
  InjectedConnector,
  injectedFallbackFor,
  MetaMaskSdkConnector,
  SolanaInjectedConnector,
  solanaInjectedOptions,
  switchEthereumChain,
  toHexChainId,
  UniversalLinkConnector,
  WalletConnectConnector,
  walletConnectDeepLink,
  walletConnectNamespaces,
} from '../../src/connectors'
import { isAppError } from '../../src/errors'
import {
  AppError,
  authorizationOf,
  buildEip3009Authorization,
  buildSignedMessageEnvelope,
  createRelayClient,
  createRelayTokenSource,
  GenericWalletSessionClient,
  getWalletInfo,
  ProviderRpcError,
  pollGenericSessionResult,
  signTransferAuthorization,
  signTypedDataOverRelay,
} from '../../src/index'
import { createRelayWallet } from '../../src/wallet'
import { describeIssue, issuesToFieldIssues } from '../../src/wire'

// Issue 27, "No raw TypeError from any public method": the counterexamples the public-surface
// property (issue-27.public-surface.test.ts) found in the library entries (`scope-connect`,
// `/wire`, `/wallet`, `/connectors`), kept as named cases. Each raised a raw TypeError before its
// boundary check; now it throws (or rejects with) the documented `AppError`, naming the argument,
// and a valid call next to it still works.

/** The AppError code a call throws or rejects with; fails on a raw error or on no error. */
async function libraryCode(call: () => unknown): Promise<string> {
  let caught: unknown
  try {
    await call()
  } catch (error) {
    caught = error
  }
  if (caught === undefined) throw new Error('did not throw')
  if (!isAppError(caught)) throw new Error(`raised a raw ${String(caught)}`)
  return caught.code
}

/** `details[0].field` of the AppError a call throws or rejects with. */
async function fieldOf(call: () => unknown): Promise<string | undefined> {
  try {
    await call()
  } catch (error) {
    if (isAppError(error)) return error.details?.[0]?.field
    throw new Error(`raised a raw ${String(error)}`)
  }
  throw new Error('did not throw')
}

const build = (...args: unknown[]) =>
  (buildEip3009Authorization as (...a: unknown[]) => unknown)(...args)
const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const FROM = privateKeyToAccount(`0x${'11'.repeat(32)}`).address
const TO = privateKeyToAccount(`0x${'22'.repeat(32)}`).address
/** ABI-encoded `string` return data (what `name()` and `version()` answer). */
function abiString(text: string): string {
  const hex = Buffer.from(text, 'utf8').toString('hex')
  return `0x${'20'.padStart(64, '0')}${text.length.toString(16).padStart(64, '0')}${hex.padEnd(64, '0')}`
}
const reader = {
  call: async ({ data }: { to: string; data: string }) =>
    data === '0x06fdde03' ? abiString('USD Coin') : abiString('2'),
}
const validParams = { token: TOKEN, chainId: 8453, from: FROM, to: TO, value: 1n, reader }
/** A settled session whose wallet signs with a real key (a viem account). */
const signingSession = () => {
  const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
  return {
    namespaces: {
      eip155: {
        chains: ['eip155:8453'],
        accounts: [`eip155:8453:${account.address}`],
        methods: ['eth_signTypedData_v4'],
        events: [],
      },
    },
    async request<T>(args: { method: string; params: unknown }): Promise<T> {
      const [, json] = args.params as [string, string]
      const typed = JSON.parse(json)
      const { EIP712Domain: _domain, ...types } = typed.types
      return (await account.signTypedData({ ...typed, types })) as T
    },
  }
}

describe('library entries', () => {
  it('AppError / ProviderRpcError: a Symbol message, null options or garbage details never throw', () => {
    const fromSymbol = new AppError('INVALID_CONFIG', Symbol('s') as never)
    expect(fromSymbol.shortMessage).toBe('Symbol(s)')
    expect(new AppError('INVALID_CONFIG', 'x', null as never).message).toBe('x')
    const odd = new AppError('INVALID_CONFIG', 'x', { details: [null, 5] as never })
    expect(odd.message).toBe('x') // details that cannot be listed are dropped
    expect(odd.details).toBeUndefined()
    expect(new AppError('INVALID_CONFIG', 'x', { details: 'no' as never }).details).toBeUndefined()
    expect(new AppError('INVALID_CONFIG', Object.create(null)).shortMessage).toBe('')
    expect(new ProviderRpcError(4001, Symbol.iterator as never).message).toBe(
      'Symbol(Symbol.iterator)',
    )
    // Valid input as before: the same details array, the same message.
    const details = [{ field: 'chainId', reason: 'is invalid' }]
    const error = new AppError('RPC_ERROR', 'Failed.', { details, status: 422 })
    expect(error.details).toBe(details)
    expect(error.message).toBe('Failed.\n- chainId: is invalid')
    expect(new ProviderRpcError(4001, 'no').message).toBe('no')
  })

  it('authorizationOf(undefined / null / a number / a message of the wrong types) is INVALID_CONFIG', async () => {
    const call = authorizationOf as (...a: unknown[]) => unknown
    expect(await libraryCode(() => call())).toBe('INVALID_CONFIG')
    expect(await libraryCode(() => call(null))).toBe('INVALID_CONFIG')
    expect(await fieldOf(() => call(-1e-289, {}))).toBe('typedData')
    expect(await fieldOf(() => call({}))).toBe('typedData.message')
    expect(await fieldOf(() => call({ message: { from: FROM, to: TO, value: 'x' } }))).toBe(
      'typedData.message.value',
    )
    const typedData = await buildEip3009Authorization(validParams)
    expect(authorizationOf(typedData)).toMatchObject({ from: FROM, to: TO, value: 1n })
  })

  it('buildEip3009Authorization(null / a Symbol chain id / no reader) rejects with INVALID_CONFIG', async () => {
    expect(await libraryCode(() => build())).toBe('INVALID_CONFIG')
    expect(await libraryCode(() => build(null))).toBe('INVALID_CONFIG')
    expect(await fieldOf(() => build({ ...validParams, chainId: Symbol.iterator }))).toBe('chainId')
    expect(await fieldOf(() => build({ ...validParams, reader: 5 }))).toBe('reader')
    expect(await fieldOf(() => build({ ...validParams, nonce: 5 }))).toBe('nonce')
    expect(await fieldOf(() => build({ ...validParams, now: 5 }))).toBe('now')
    const typed = await buildEip3009Authorization(validParams)
    expect(typed.domain).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: 8453,
      verifyingContract: TOKEN,
    })
  })

  it('signTransferAuthorization / signTypedDataOverRelay given a number session are INVALID_CONFIG; a real key still signs', async () => {
    const transfer = signTransferAuthorization as (...a: unknown[]) => Promise<unknown>
    const typed = signTypedDataOverRelay as (...a: unknown[]) => Promise<unknown>
    expect(await fieldOf(() => transfer(-1.7976931348623127e308))).toBe('session')
    expect(await fieldOf(() => transfer(signingSession(), null))).toBe('params')
    expect(await fieldOf(() => typed(-1.7976931348623127e308))).toBe('session')
    expect(await fieldOf(() => typed(signingSession(), 5))).toBe('typedData')
    expect(await fieldOf(() => typed(signingSession(), {}, { address: 5 }))).toBe('options.address')
    expect(await fieldOf(() => typed(signingSession(), { domain: { chainId: {} } }))).toBe(
      'typedData.domain.chainId',
    )
    const signed = await signTransferAuthorization(signingSession(), {
      token: TOKEN,
      chainId: 8453,
      to: TO,
      value: 5n,
      reader,
    })
    expect(signed.authorization.from).toBe(FROM)
    expect(signed.signature).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('buildSignedMessageEnvelope(bigint, bigint, {}) is INVALID_CONFIG, not "Do not know how to serialize a BigInt"', async () => {
    const call = buildSignedMessageEnvelope as (...a: unknown[]) => string
    expect(await fieldOf(() => call(5n, 7n, {}))).toBe('session')
    expect(await fieldOf(() => call('s', 'n', 'a', Number.NaN))).toBe('timestamp')
    expect(buildSignedMessageEnvelope('s', 'n', 'a', 1)).toBe(
      '{"session":"s","nonce":"n","walletAddress":"a","timestamp":1}',
    )
  })

  it('createRelayClient / createRelayTokenSource / createRelayWallet(null or nothing) are INVALID_CONFIG', async () => {
    for (const factory of [createRelayClient, createRelayTokenSource, createRelayWallet]) {
      const call = factory as (...a: unknown[]) => unknown
      expect(await fieldOf(() => call())).toBe('options')
      expect(await fieldOf(() => call(null))).toBe('options')
    }
    expect(
      await fieldOf(() =>
        createRelayWallet({
          metadata: { name: 'W', url: 'https://w.example' },
          now: 5 as never,
        }),
      ),
    ).toBe('options.now')
    expect(
      typeof createRelayTokenSource({ baseUrl: 'https://api.example', appKey: 'pk_test' }),
    ).toBe('function')
  })

  it('pollGenericSessionResult(null / a client without getResult / a number id) rejects with INVALID_CONFIG', async () => {
    const call = pollGenericSessionResult as (...a: unknown[]) => Promise<unknown>
    const client = new GenericWalletSessionClient('https://api.example', 'pk_test')
    expect(await fieldOf(() => call())).toBe('client')
    expect(await fieldOf(() => call(null))).toBe('client')
    expect(await fieldOf(() => call({}, 's', 't'))).toBe('client')
    expect(await fieldOf(() => call(client, 5, 't'))).toBe('sessionId')
    expect(await fieldOf(() => call(client, 's', null))).toBe('sessionToken')
    expect(await fieldOf(() => call(client, 's', 't', 5))).toBe('options')
    expect(await fieldOf(() => call(client, 's', 't', { signal: 5 }))).toBe('options.signal')
    // A valid call with an aborted signal still rejects ABORTED (nothing sent).
    expect(await libraryCode(() => call(client, 's', 't', { signal: AbortSignal.abort() }))).toBe(
      'ABORTED',
    )
  })

  it('describeIssue / issuesToFieldIssues never throw on garbage (pure converters)', () => {
    const describe_ = describeIssue as (...a: unknown[]) => string
    const toFields = issuesToFieldIssues as (...a: unknown[]) => unknown
    expect(describe_()).toBe('is invalid')
    expect(describe_(null)).toBe('is invalid')
    expect(describe_({ code: 'invalid_value', values: 5 })).toBe('is invalid')
    expect(describe_({ code: 'invalid_value', values: [1n] })).toBe('is invalid')
    expect(describe_({ code: 'custom', message: 5 })).toBe('is invalid')
    expect(toFields()).toEqual([])
    expect(toFields(null)).toEqual([])
    expect(toFields(-1e-289, {})).toEqual([])
    expect(toFields([null, [1]])).toEqual([
      { field: '(root)', reason: 'is invalid' },
      { field: '(root)', reason: 'is invalid' },
    ])
    // A real zod issue as before.
    const issue = { code: 'invalid_type', expected: 'string', path: ['a', 0], message: '' }
    expect(describeIssue(issue as never)).toBe('must be string')
    expect(issuesToFieldIssues([issue as never], {})).toEqual([
      { field: 'a.0', reason: 'is required' },
    ])
  })

  it('connector constructors given null, a Symbol or primitives throw INVALID_CONFIG', async () => {
    const construct =
      (C: unknown, ...args: unknown[]) =>
      () =>
        Reflect.construct(C as new (...a: unknown[]) => unknown, args)
    expect(await fieldOf(construct(Eip6963Connector, Symbol.iterator))).toBe('rdns')
    expect(await fieldOf(construct(Eip6963Connector, 'io.metamask', 5))).toBe('options')
    expect(await fieldOf(construct(Eip6963Connector, 'io.metamask', { timeoutMs: 'x' }))).toBe(
      'options.timeoutMs',
    )
    expect(await fieldOf(construct(UniversalLinkConnector))).toBe('options')
    expect(await fieldOf(construct(UniversalLinkConnector, null))).toBe('options')
    expect(await fieldOf(construct(UniversalLinkConnector, { walletId: 'phantom' }))).toBe(
      'options.session',
    )
    expect(await fieldOf(construct(WalletConnectConnector))).toBe('options')
    expect(await fieldOf(construct(WalletConnectConnector, null))).toBe('options')
    expect(await fieldOf(construct(WalletConnectConnector, { chains: 'eip155:1' }))).toBe('chains')
    expect(await fieldOf(construct(MetaMaskSdkConnector, null))).toBe('options')
    expect(await fieldOf(construct(SolanaInjectedConnector, null))).toBe('options')
    expect(await fieldOf(construct(SolanaInjectedConnector, { walletId: 5 }))).toBe(
      'options.walletId',
    )
    expect(await libraryCode(construct(SolanaInjectedConnector, { chainId: 5 }))).toBe(
      'UNSUPPORTED_CHAIN',
    )
    expect(await fieldOf(construct(InjectedConnector, 5))).toBe('provider')
    expect(await fieldOf(construct(InjectedConnector, undefined, null))).toBe('options')
    expect(await fieldOf(() => createMetaMaskSdkProviderGetter(null as never))).toBe('options')
    expect(await fieldOf(() => createMetaMaskSdkProviderGetter({ importSdk: 5 as never }))).toBe(
      'options.importSdk',
    )
    // Valid input as before.
    expect(new Eip6963Connector('io.metamask').id).toBe('eip6963:io.metamask')
    expect(new Eip6963Connector('').id).toBe('eip6963:')
    expect(new SolanaInjectedConnector({ walletId: 'phantom' }).id).toBe('solana:phantom')
    expect(new InjectedConnector().id).toBe('injected')
    expect(new InjectedConnector(null as never).id).toBe('injected')
    expect(new MetaMaskSdkConnector().id).toBe('metamask')
    expect(
      new UniversalLinkConnector({
        walletId: 'phantom',
        universalLink: 'https://phantom.app/ul/v1/connect',
        session: new GenericWalletSessionClient('https://api.example', 'pk_test'),
      }).id,
    ).toBe('phantom')
  })

  it('registry-wallet helpers given null, a function or a Symbol namespace are INVALID_CONFIG', async () => {
    const kind = connectorKindForWallet as (...a: unknown[]) => unknown
    const create = createConnectorForWallet as (...a: unknown[]) => unknown
    const metamask = getWalletInfo('metamask')
    expect(await fieldOf(() => kind())).toBe('info')
    expect(await fieldOf(() => kind(null))).toBe('info')
    expect(await fieldOf(() => kind(() => undefined, Symbol.iterator))).toBe('info')
    expect(await fieldOf(() => kind(metamask, Symbol.iterator))).toBe('namespace')
    expect(await fieldOf(() => create(null))).toBe('info')
    expect(await fieldOf(() => create(metamask, 'eip155', null))).toBe('options')
    expect(await fieldOf(() => create(metamask, 'eip155', { walletConnect: 5 }))).toBe(
      'options.walletConnect',
    )
    expect(await fieldOf(() => (injectedFallbackFor as (...a: unknown[]) => unknown)(null))).toBe(
      'info',
    )
    expect(
      await fieldOf(() =>
        (solanaInjectedOptions as (...a: unknown[]) => unknown)(-Number.MAX_VALUE),
      ),
    ).toBe('info')
    // Valid input as before.
    expect(connectorKindForWallet(metamask, 'eip155', false)).toBe('eip6963')
    expect(solanaInjectedOptions(getWalletInfo('phantom'), {})).toMatchObject({
      walletId: 'phantom',
    })
    expect(injectedFallbackFor(metamask)).toBeUndefined() // no window here
  })

  it('chain helpers given a Symbol or non-string chains are UNSUPPORTED_CHAIN / INVALID_CONFIG', async () => {
    expect(await libraryCode(() => toHexChainId(Symbol.iterator as never))).toBe(
      'UNSUPPORTED_CHAIN',
    )
    expect(await libraryCode(() => addEthereumChainParameter(Symbol.iterator as never))).toBe(
      'UNSUPPORTED_CHAIN',
    )
    const asked: unknown[] = []
    const request = async (args: unknown) => {
      asked.push(args)
    }
    expect(await libraryCode(() => switchEthereumChain(request, Symbol.iterator as never))).toBe(
      'UNSUPPORTED_CHAIN',
    )
    expect(await fieldOf(() => switchEthereumChain(5 as never, 'eip155:1'))).toBe('request')
    expect(asked).toEqual([])
    const namespaces = walletConnectNamespaces as (...a: unknown[]) => unknown
    expect(await fieldOf(() => namespaces())).toBe('chains')
    expect(await fieldOf(() => namespaces(null))).toBe('chains')
    expect(await libraryCode(() => namespaces([null]))).toBe('UNSUPPORTED_CHAIN')
    expect(await libraryCode(() => namespaces([7704831664366509]))).toBe('UNSUPPORTED_CHAIN')
    const deepLink = walletConnectDeepLink as (...a: unknown[]) => unknown
    expect(await fieldOf(() => deepLink(null))).toBe('link')
    expect(await fieldOf(() => deepLink('https://w.example/wc', Symbol.iterator))).toBe(
      'pairingUri',
    )
    const find = findSolanaStandardWallet as (...a: unknown[]) => unknown
    expect(await fieldOf(() => find({}))).toBe('name')
    // Valid input as before.
    expect(toHexChainId('eip155:8453')).toBe('0x2105')
    await switchEthereumChain(request, 'eip155:8453')
    expect(asked).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
    ])
    expect(
      Object.keys(walletConnectNamespaces(['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'])),
    ).toEqual(['eip155', 'solana'])
    expect(walletConnectDeepLink('https://w.example/wc', 'wc:1@2')).toBe(
      'https://w.example/wc?uri=wc%3A1%402',
    )
    expect(findSolanaStandardWallet('nothing-registered')).toBeUndefined()
  })
})
