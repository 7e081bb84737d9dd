// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { type AppError, isAppError } from '../../src/errors'
import {
  ClientPathError,
  clickButton,
  createClientCoverage,
  createDomDriver,
  createScriptedEvmWallet,
  createScriptedSolanaWallet,
  createTestWallet,
  exposeClientPaths,
  getClientPaths,
  openClientPaths,
  runClientPath,
  sameClientView,
  TEST_EVM_KEYS,
  TEST_SOLANA_KEYS,
  viewDifferences,
} from '../../src/testing'

// Issue 27, "No raw TypeError from any public method": the counterexamples the public-surface
// property (issue-27.public-surface.test.ts) found, kept as named cases. Each call raised a raw
// TypeError (or a plain Error from deep inside) before its argument check; now it throws, or
// rejects with, `INVALID_CONFIG` naming the argument, and valid input still works.

/** The `INVALID_CONFIG` a call throws (or rejects with); fails the test on anything else. */
async function invalid(call: () => unknown): Promise<AppError> {
  let error: unknown
  try {
    await call()
  } catch (caught) {
    error = caught
  }
  expect(isAppError(error, 'INVALID_CONFIG'), String(error)).toBe(true)
  return error as AppError
}

describe('testing entry', () => {
  const [path] = getClientPaths({ flows: ['desktop'], maxSteps: 1 })
  if (!path) throw new Error('no path generated')
  const view = path.initial

  it('clickButton(-1e-289, {…}): names ui (was "ui.querySelectorAll is not a function")', async () => {
    const error = await invalid(() => clickButton(-1.0773927787647712e-289 as never, {} as never))
    expect(error.shortMessage).toContain('clickButton ui')
    const ui = document.createElement('div')
    ui.innerHTML = '<button>Connect</button>'
    expect((await invalid(() => clickButton(ui, 42 as never))).shortMessage).toContain(
      'clickButton name',
    )
    let clicked = 0
    ui.querySelector('button')?.addEventListener('click', () => clicked++)
    clickButton(ui, 'Connect')
    expect(clicked).toBe(1)
  })

  it('exposeClientPaths(): names options (was "reading \'paths\'" of undefined)', async () => {
    expect((await invalid(() => exposeClientPaths(undefined as never))).shortMessage).toBe(
      'Invalid exposeClientPaths options: is required.',
    )
    const error = await invalid(() => exposeClientPaths({ driver: { mount: () => {} } } as never))
    expect(error.details?.map((d) => d.field)).toEqual([
      'exposeClientPaths options.driver.act',
      'exposeClientPaths options.driver.expect',
    ])
  })

  it('openClientPaths(null, 1): rejects naming page (was a raw TypeError)', async () => {
    const error = await invalid(() => openClientPaths(null as never, 1 as never))
    expect(error.shortMessage).toContain('openClientPaths page')
  })

  it('createTestWallet([]): names options.namespace; a valid wallet still connects', async () => {
    const error = await invalid(() => createTestWallet([] as never))
    expect(error.shortMessage).toContain('createTestWallet options')
    await invalid(() => createTestWallet({ namespace: 'eip155', privateKey: '0x12' as never }))
    await invalid(() => createTestWallet({ namespace: 'eip155', chains: ['solana:x' as never] }))
    const wallet = createTestWallet({ namespace: 'eip155', chains: ['eip155:10', 1] })
    const accounts = await (wallet.provider as { request(a: unknown): Promise<unknown> }).request({
      method: 'eth_requestAccounts',
    })
    expect(accounts).toEqual([wallet.address, expect.any(String)])
  })

  it('createScriptedEvmWallet("x"): names keys; chains must be positive integers', async () => {
    expect((await invalid(() => createScriptedEvmWallet('x' as never))).shortMessage).toContain(
      'createScriptedEvmWallet keys',
    )
    const error = await invalid(() => createScriptedEvmWallet([], { chains: [Number.NaN] }))
    expect(error.shortMessage).toContain('createScriptedEvmWallet options.chains.0')
    expect(createScriptedEvmWallet([TEST_EVM_KEYS[0] as `0x${string}`]).chainId).toBe('eip155:1')
  })

  it('createScriptedSolanaWallet(1, [new Uint8Array(3)]): names name, then secretKeys', async () => {
    expect(
      (await invalid(() => createScriptedSolanaWallet(1 as never, []))).shortMessage,
    ).toContain('createScriptedSolanaWallet name')
    const error = await invalid(() => createScriptedSolanaWallet('W', [new Uint8Array(3)]))
    expect(error.shortMessage).toBe(
      'Invalid createScriptedSolanaWallet secretKeys.0: must be a 32-byte Uint8Array.',
    )
    expect(createScriptedSolanaWallet('W', [TEST_SOLANA_KEYS[0] as Uint8Array]).address).toMatch(
      /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    )
  })

  it('sameClientView(-1.8e308): names actual (was "reading \'status\'" of undefined)', async () => {
    expect(
      (await invalid(() => sameClientView(-1.7976931348623127e308 as never, view))).shortMessage,
    ).toContain('sameClientView actual')
    expect(sameClientView(view, view)).toBe(true)
  })

  it('viewDifferences with a bigint status: INVALID_CONFIG (was JSON.stringify TypeError)', async () => {
    const error = await invalid(() => viewDifferences({ ...view, status: 1n as never }, view))
    expect(error.shortMessage).toBe('Invalid viewDifferences actual.status: must be string.')
    expect(viewDifferences({ ...view, isBusy: !view.isBusy }, view)).toEqual([
      `isBusy: ${!view.isBusy}, expected ${view.isBusy}`,
    ])
  })

  it('new ClientPathError({}, …): names path; a real path still reads', async () => {
    expect((await invalid(() => new ClientPathError({} as never, 0, 'r'))).shortMessage).toContain(
      'ClientPathError path',
    )
    await invalid(() => new ClientPathError(path, 1.5, 'r'))
    expect(new ClientPathError(path, 0, 'why').message).toContain(
      `after step 1 (${path.steps[0]?.description}): why`,
    )
  })

  it('runClientPath(path, {}): rejects naming driver before any Client starts', async () => {
    const error = await invalid(() => runClientPath(path, {} as never))
    expect(error.details?.map((d) => d.field)).toEqual([
      'runClientPath driver.mount',
      'runClientPath driver.act',
      'runClientPath driver.expect',
    ])
    await invalid(() => runClientPath(null as never, {} as never))
    const driver = { mount: () => {}, act: () => {}, expect: () => {} }
    await invalid(() => runClientPath(path, driver, { settleMs: '5' as never }))
  })

  it('createDomDriver / getClientPaths / createClientCoverage: wrong options named', async () => {
    expect((await invalid(() => createDomDriver(null as never))).shortMessage).toContain(
      'createDomDriver options',
    )
    expect((await invalid(() => getClientPaths({ flows: ['nope' as never] }))).shortMessage).toBe(
      'Invalid getClientPaths options.flows.0: must be one of "desktop", "universalLink", "pairing".',
    )
    expect((await invalid(() => createClientCoverage(7 as never))).shortMessage).toContain(
      'createClientCoverage options',
    )
  })
})
