import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Consumer, createConsumer, packTarball } from '../support/packed'

// The packed declarations type-check in a consumer project under the three resolutions apps use,
// with `skipLibCheck: false` (so every .d.ts / .d.cts we ship, and what they import, is checked):
// `bundler` (Vite, webpack, esbuild), `node16` from an ES module and `node16` from CommonJS.
// The consumer has React's types (`@types/react`, which a TypeScript app on React has) but not
// `@xstate/react`: the hooks' declarations need nothing else.

const USES = `
const client = new Client({ baseUrl: 'https://api.example.com', appKey: 'app-key' })
const reader = createBalanceReader({ baseUrl: 'https://api.example.com', appKey: 'app-key' })
export const pending: Promise<TokenBalance> = reader.getBalance({
  chainId: 'eip155:1',
  tokenAddress: 'native',
  account: '0x0000000000000000000000000000000000000000',
})
export const store: UniversalLinkStore = createBrowserUniversalLinkStore()
export function describeError(error: unknown): string {
  return isAppError(error) ? error.code : 'unknown'
}
export const connection: WalletConnection | null = client.getConnection()
export const body = ConfigResponseSchema.parse({})
export const actor = createConnectActor(new InjectedConnector())
export const lazy = createLazyLogic('universalLink')
export const wallet = new SolanaInjectedConnector({ walletId: 'phantom' })
export const useStatus = (): string => useClientView(client).status
export const useWallet = (): WalletConnection | null => useConnection(client)
export const useAddress = (): string | null =>
  useClientSelector(client, (snapshot) => snapshot.context.connection?.accounts[0] ?? null)
export const provided = ClientProvider({ client, children: null })
export const useRaw = (): bigint | undefined => useBalance({ chainId: 'eip155:1' }).data?.raw
export const useConnectNow = (): (() => void) => {
  const { connect } = useConnect()
  return () => connect({ walletId: 'metamask', namespace: 'eip155' })
}
export function mountConnectButton(element: ConnectElement): void {
  defineConnectElements()
  element.client = client
}
`

const ESM_IMPORTS = `import {
  createBalanceReader,
  createBrowserUniversalLinkStore,
  isAppError,
  type TokenBalance,
  type UniversalLinkStore,
  type WalletConnection,
} from 'scope-connect'
import { Client } from 'scope-connect/client'
import { InjectedConnector, SolanaInjectedConnector } from 'scope-connect/connectors'
import { createConnectActor } from 'scope-connect/machines'
import { createLazyLogic } from 'scope-connect/internal'
import {
  ClientProvider,
  useBalance,
  useClientSelector,
  useClientView,
  useConnect,
  useConnection,
} from 'scope-connect/react'
import { type ConnectElement, defineConnectElements } from 'scope-connect/ui'
import { ConfigResponseSchema } from 'scope-connect/wire'
`

/** The same program as a CommonJS module (`import x = require()` is what `.cts` compiles to). */
const CJS_IMPORTS = `import scope = require('scope-connect')
import clientEntry = require('scope-connect/client')
import connectors = require('scope-connect/connectors')
import machines = require('scope-connect/machines')
import internal = require('scope-connect/internal')
import react = require('scope-connect/react')
import ui = require('scope-connect/ui')
import wire = require('scope-connect/wire')
const { createBalanceReader, createBrowserUniversalLinkStore, isAppError } = scope
const { Client } = clientEntry
const { InjectedConnector, SolanaInjectedConnector } = connectors
const { createConnectActor } = machines
const { createLazyLogic } = internal
const { ClientProvider, useBalance, useClientSelector, useClientView, useConnect, useConnection } =
  react
const { ConfigResponseSchema } = wire
const { defineConnectElements } = ui
type ConnectElement = ui.ConnectElement
type TokenBalance = scope.TokenBalance
type UniversalLinkStore = scope.UniversalLinkStore
type WalletConnection = scope.WalletConnection
`

const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: 'ES2022',
  // The library runs in browsers; its declarations name DOM types (Storage, Window events).
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  types: [],
}

let consumer: Consumer
/**
 * Two compilations, started together in `beforeAll` (independent `tsc` processes): `bundler` over
 * the ES module, and one `node16` program over the ES module, the CommonJS one and the broken one
 * (the same options: one program checks the shared declarations once instead of three times). Each
 * holds the errors `tsc` reported, by file.
 */
let checks: Record<'bundler' | 'node16', Promise<Diagnostics>>

beforeAll(() => {
  consumer = createConsumer(packTarball(), ['typescript', '@types/react', 'csstype'])
  writeFileSync(join(consumer.dir, 'esm.mts'), ESM_IMPORTS + USES)
  writeFileSync(join(consumer.dir, 'cjs.cts'), CJS_IMPORTS + USES)
  writeFileSync(
    join(consumer.dir, 'broken.mts'),
    `${ESM_IMPORTS}${USES}\nexport const n: number = client\n`,
  )
  checks = {
    bundler: tsc('bundler', { module: 'ESNext', moduleResolution: 'Bundler' }, ['esm.mts']),
    node16: tsc('node16', { module: 'Node16', moduleResolution: 'Node16' }, [
      'esm.mts',
      'cjs.cts',
      'broken.mts',
    ]),
  }
  // Each test awaits its own; none is left unobserved if a test before it fails.
  for (const check of Object.values(checks)) check.catch(() => {})
}, 180_000)

afterAll(async () => {
  await Promise.allSettled(Object.values(checks ?? {}))
  consumer?.remove()
}, 120_000)

const execFileAsync = promisify(execFile)

/** `tsc`'s error lines, by the file they name (`esm.mts`, `node_modules/…/index.d.cts`). */
type Diagnostics = Map<string, string[]>

/** `tsc -p` of a config written for `files`: its errors by file (none when the program compiles). */
async function tsc(
  name: string,
  options: Record<string, unknown>,
  files: string[],
): Promise<Diagnostics> {
  const config = join(consumer.dir, `tsconfig.${name}.json`)
  writeFileSync(
    config,
    JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, ...options }, files }),
  )
  let output = ''
  try {
    await execFileAsync(join(consumer.dir, 'node_modules/typescript/bin/tsc'), ['-p', config], {
      cwd: consumer.dir,
      encoding: 'utf8',
    })
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error)
  }
  const byFile: Diagnostics = new Map()
  // An error starts a line with `file(line,col): error`, its continuation lines are indented; any
  // other line (a config error, a crash) is `tsc`'s own.
  let file = '(tsc)'
  for (const line of output.split('\n').filter((text) => text.trim() !== '')) {
    const start = /^(\S[^(]*)\(\d+,\d+\): error/.exec(line)
    if (start?.[1]) file = start[1]
    else if (!/^\s/.test(line)) file = '(tsc)'
    byFile.set(file, [...(byFile.get(file) ?? []), line])
  }
  return byFile
}

/** The errors of a program, the other consumers' own files aside, as text ('' for none). */
function errorsBesides(diagnostics: Diagnostics, otherConsumers: string[]): string {
  return [...diagnostics]
    .filter(([file]) => !otherConsumers.includes(file))
    .flatMap(([, lines]) => lines)
    .join('\n')
}

describe('the packed declarations in a consumer project (skipLibCheck: false)', () => {
  it('moduleResolution bundler', async () => {
    expect(errorsBesides(await checks.bundler, [])).toBe('')
  }, 120_000)

  it('node16 from an ES module', async () => {
    expect(errorsBesides(await checks.node16, ['cjs.cts', 'broken.mts'])).toBe('')
  }, 120_000)

  it('node16 from CommonJS (no TS1479 on ESM-only dependencies)', async () => {
    expect(errorsBesides(await checks.node16, ['esm.mts', 'broken.mts'])).toBe('')
  }, 120_000)

  it('a type error in the consumer is reported (the check is live)', async () => {
    const broken = (await checks.node16).get('broken.mts') ?? []
    expect(broken.join('\n')).toMatch(/^broken\.mts\(\d+,\d+\): error TS2322/)
  }, 120_000)
})
