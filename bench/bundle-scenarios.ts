import type { Measurement } from './bundle-measure'

/**
 * What the bundle-size bench and the budget test measure. Each scenario is the entry module of an
 * app that imports just that from the published package; `budget` is the gzip goal for the entry
 * chunk (what loads before any `import()`), enforced by `test/package/budgets.test.ts`.
 *
 * To add a scenario (a new subpath such as `scope-connect/wallet`), append it here; one whose
 * `subpath` is not in the package's `exports` yet is reported as skipped, not failed.
 */
export interface Scenario {
  name: string
  /** The app's entry module. */
  source: string
  /** Gzip bytes the entry chunk may weigh. */
  budget?: number
  /**
   * Gzip bytes the entry chunk and every chunk behind its `import()`s may weigh together, the
   * `optionalChunks` aside.
   */
  totalBudget?: number
  /**
   * Lazy chunks an app loads only when it asks for what they hold (a locale, the wallet icons), by
   * name (the module a chunk starts from), each with its own gzip budget; left out of `totalBudget`.
   */
  optionalChunks?: Record<string, number>
  /** The package subpath it needs; skipped while `exports` lacks it. */
  subpath?: string
  /** Packages the app brings itself (peer dependencies such as `react`): left out of the measure. */
  external?: string[]
}

const KB = 1024

/** What `totalBudget` counts: the entry chunk and its lazy chunks, the optional chunks aside. */
export function coreTotal(scenario: Scenario, measured: Measurement): number {
  const optional = scenario.optionalChunks ?? {}
  return (
    measured.initial.gzip +
    measured.lazy.filter((chunk) => !(chunk.name in optional)).reduce((sum, c) => sum + c.gzip, 0)
  )
}

/** The React entry's peer dependencies: an app using it has them already. */
const REACT_PEERS = ['react', '@xstate/react']

/** The wagmi entry's peer dependencies: a wagmi app has them already. */
export const WAGMI_PEERS = ['@wagmi/core', 'viem']

/** The pure functions: no network, no wallet (errors, logging, registry, pairing, links). */
export const PURE_FUNCTIONS = [
  'AppError',
  'isAppError',
  'isProviderRpcError',
  'normalizeWalletError',
  'ProviderRpcError',
  'USER_REJECTED_CODE',
  'setConsoleLogging',
  'setDebugMode',
  'getNetworkInfo',
  'getNetworksForWallet',
  'getWalletInfo',
  'getWalletNamespaces',
  'getWalletsForNetwork',
  'isWalletNetworkSupported',
  'listConnectableTargets',
  'listSupportedNetworks',
  'listSupportedWallets',
  'walletIdForConnectorId',
  'walletSupportsMobile',
  'walletSupportsMobileOn',
  'walletSupportsNamespace',
  'walletSupportsRelay',
  'walletSupportsRelayOn',
  'buildPairingUri',
  'createPairing',
  'parsePairingUri',
  'relayTokenExpired',
  'buildUniversalLinkUrl',
  'createBrowserUniversalLinkStore',
  'createMemoryUniversalLinkStore',
  'UNIVERSAL_LINK_PARAMS',
  'SOLANA_SIGN_TRANSACTION_METHOD',
  'buildSignedMessageEnvelope',
]

const from = (names: string[], subpath = 'scope-connect') =>
  `export { ${names.join(', ')} } from '${subpath}'`

/**
 * The root machine's share of the `Client` entry (issue 8: at most 3 KB gzip): its own modules
 * (`machines/client/`) and the modules the entry reaches only through them, measured by
 * `attribute` in `bench/bundle-measure.ts`.
 */
export const ROOT_MACHINE = {
  source: from(['Client'], 'scope-connect/client'),
  own: (name: string) => name.startsWith('dist/machines/client/'),
  // 3 KB (issue 8), plus what issue 15 asked of the chart: every child's failure and every
  // read's end handled, the pairing wait bounded, its deadlines on an injected clock; plus what
  // issue 18 asked: the silent reconnect and chain switch flows, the project's chains in the view;
  // and issue 20's transaction child (spawned beside the connection, its answer and failures):
  // 3.96 KB (esbuild) / 4.11 KB (Rollup) with all three. Issues 26 and 27 (WalletConnect's pairing
  // URI, one wallet request at a time, account changes, settled requests leaving the context):
  // 4.28 KB (esbuild) / 4.43 KB (Rollup); 4.27 / 4.38 KB once the registry left the entry (the
  // chart's own code: moving modules out of the entry cannot bring it under the 4.25 KB it had).
  // Issue 27's timeout that says what did not answer (the root keeps the link polls' and the
  // relay's trouble and builds the message: ~0.55 KB): 4.74 KB (esbuild) / 4.85 KB (Rollup).
  // Moving the message into the universal-link and pairing charts would win it back (not done).
  // Issue 30's split of the chart by region (client.setup.ts and four region files built with
  // createStateConfig) and one shared notProvided: 5.23 KB (esbuild) / 4.93 KB (Rollup). Raised
  // to 5.3 KB for now. Issue 30 item 7 brought the `Client` entry back to 28 KB from outside the
  // chart (src/client, its lazy chunks): the share stays 5.24 KB (esbuild) / 5.02 KB (Rollup), the
  // chart's own code; 4.9 KB needs the chart itself smaller (not done). Item 1 then moved the
  // reads' slots and the project's chains from src/client into the chart, and item 2 had the
  // transaction child report by snapshot (the Client no longer follows it): 5.48 KB (esbuild),
  // while the `Client` entry went 27.97 -> 27.89 KB. What the chart now does, the entry no longer
  // carries elsewhere. Raised to 5.5 KB. Then two fixes in the chart: a child's facts kept from
  // its every snapshot (a stale relay-down reason, stale link-poll trouble), no watch replacing a
  // transaction being sent, and a relay request given up on is abandoned in the pairing (it
  // blocked the next one): 5.58 KB (esbuild, 5,709 B), the `Client` entry still under 28 KB.
  // Raised to 5.6 KB.
  budget: 5.6 * KB,
}

export const LIBRARY_SCENARIOS: Scenario[] = [
  { name: '`isAppError`', source: from(['isAppError']), budget: 1 * KB },
  { name: 'one lookup (`getWalletInfo`)', source: from(['getWalletInfo']), budget: 3.5 * KB },
  { name: '`parsePairingUri`', source: from(['parsePairingUri']), budget: 2.5 * KB },
  { name: 'all pure functions', source: from(PURE_FUNCTIONS), budget: 8 * KB },
  {
    name: '`createBalanceReader`',
    source: from(['createBalanceReader']),
    // 15.5 KB with getBalances and its batch schemas (issue 19): 15.26 KB (esbuild) / 15.03 KB
    // (Rollup). Issue 30 item 7 asks 14 KB: the HTTP client's debug lines through a plug the
    // logger fills (src/log-sink.ts), the route named alone, one AppError per failed answer:
    // 14.64 / 14.53 KB. Then the wire checks the reader runs without the zod/mini classes only
    // they pulled (`z.int`, `z.gte`/`z.lte`, `z.minLength`/`z.maxLength` as plain `z.check`s
    // raising the same issues; the batch answer's entries parsed as its `z.union` did, reader-side):
    // 13.90 / 13.88 KB. What is left is ky (4.9 KB alone), zod/mini with the schemas and the error
    // paths, which cannot load lazily: the root entry exports the reader and must reach no
    // `import()` (src/index.ts; lazy failure paths gave 14.22 KB but "all pure functions" 8.08 KB).
    budget: 14 * KB,
  },
  {
    name: '`Client` (before any connector loads)',
    source: from(['Client'], 'scope-connect/client'),
    subpath: './client',
    // 28 KB until issue 18 (silent reconnect, connection store, switchChain, chainSupported); 31 KB
    // until issues 26 and 27 (guarded stores and inspector, a monotonic clock, parameter checks
    // loading beside it, reads aborted with their root, resume({ url }), any announced wallet):
    // 33.73 KB with esbuild, 30.59 KB with Rollup. Issue 27 asked that it hold: the wallet registry,
    // connector kinds and loader now load with the first connector (src/client/lazy/route.ts) and
    // the universal-link token vault with its flow, 28.26 KB / 26.64 KB; back to 31 KB (29.51 /
    // 27.63 KB with partner wallets and the WalletConnect option, issue 26). Issue 30's split of
    // the Client and its root chart into modules: 31.23 KB (esbuild), 31.5 KB for a while. Issue 30
    // item 7, back to 28 KB: what a loaded part does lives in its chunk (picking and building the
    // connector, the universal-link and pairing wiring, sendTransaction and the receipt wait,
    // pair()'s proposal), the logger loads with the first guard report, and the entry imports no
    // module only a lazy chunk needs (esbuild puts such a module in a shared chunk loaded up
    // front): 27.90 KB with esbuild, 26.19 KB with Rollup (bench/bundle-modules.ts shows the rest).
    budget: 28 * KB,
  },
  {
    // esbuild with code splitting stops honouring `"sideEffects": false` once a build has an
    // `import()` (evanw/esbuild#1110): every module the root index names with `export { … } from`
    // and the lazy chunks share loaded up front (62–70 KB). The root index re-exports through
    // `src/root/*` with `export *` instead: 33.9 KB (issue 30 asked for at most 60); 31.00 KB (esbuild)
    // / 27.97 KB (Rollup) once the `Client` entry went back to 28 KB (issue 30 item 7).
    name: '`Client` with `isAppError` and `getWalletInfo` (a typical app)',
    source: `${from(['Client'], 'scope-connect/client')}\n${from(['isAppError', 'getWalletInfo'])}`,
    subpath: './client',
    budget: 31.5 * KB,
  },
  ...(
    [
      'InjectedConnector',
      'Eip6963Connector',
      'SolanaInjectedConnector',
      'MetaMaskSdkConnector',
      'UniversalLinkConnector',
    ] as const
  ).map((name) => ({
    name: `\`${name}\` alone`,
    source: from([name], 'scope-connect/connectors'),
    subpath: './connectors',
  })),
  {
    name: 'all machines (`scope-connect/machines`)',
    source: "export * from 'scope-connect/machines'",
  },
  {
    name: 'whole package (every entry, `export *`)',
    source: [
      "export * from 'scope-connect'",
      "export * from 'scope-connect/client'",
      "export * from 'scope-connect/connectors'",
      "export * from 'scope-connect/machines'",
    ].join('\n'),
  },
  {
    name: 'wallet side (`scope-connect/wallet`)',
    source: "export * from 'scope-connect/wallet'",
    subpath: './wallet',
  },
  {
    name: 'QR code (`scope-connect/qr`)',
    source: "export * from 'scope-connect/qr'",
    subpath: './qr',
  },
  {
    // The elements render a Client the app brings (`scope-connect/client`): it is not counted.
    name: 'UI elements (`scope-connect/ui`; the elements and the QR code load on first use)',
    source: "export { defineConnectElements } from 'scope-connect/ui'",
    subpath: './ui',
    budget: 1 * KB,
    // 14 KB since the wallet list reads every Wallet Standard wallet (`@wallet-standard/app`) and
    // each wallet's paths (`walletPaths`): issue 26 items 2, 3 and 5 (was 12 KB at 11.98 KB); 14.5
    // KB since the WalletConnect rows and per-wallet deep links (issue 26 item 1: 14.04 KB). Issue
    // 31 (dark and auto presets, the messages object and its locale loader, the hooks of the toast,
    // history, icons and Recent) took it to 15.06 KB; the QR encoder moved from uqr (4.2 KB gzip)
    // to lean-qr/nano (2.1 KB) and brought it back under (13.2 KB). Every other locale and feature
    // chunk has its own budget.
    totalBudget: 14.5 * KB,
    optionalChunks: {
      'dist/ui/lazy/icons.js': 7.5 * KB,
      'dist/ui/lazy/messages/es.js': 1.25 * KB,
      'dist/ui/lazy/messages/ar.js': 1.25 * KB,
      'dist/ui/lazy/toast.js': 2 * KB,
      'dist/ui/lazy/recent.js': 0.5 * KB,
      'dist/ui/lazy/get-wallet.js': 1.5 * KB,
    },
  },
  {
    name: 'React hooks (`scope-connect/react`; `react`, `@xstate/react` external)',
    source: "export * from 'scope-connect/react'",
    subpath: './react',
    external: REACT_PEERS,
    // 2.37 KB (esbuild) / 2.31 KB (Rollup) with issue 18's hooks and their query cache; 2.51 KB
    // (esbuild) with useSignIn (issue 31 item 8).
    budget: 2.6 * KB,
  },
  {
    name: 'React view hooks alone (`useClientView`, `useConnection`, `useClientSelector`, `useClientActor`)',
    source: from(
      ['useClientView', 'useConnection', 'useClientSelector', 'useClientActor'],
      'scope-connect/react',
    ),
    subpath: './react',
    external: REACT_PEERS,
    // 0.81 / 0.77 KB: the action hooks and the query cache stay out of an app that does not use them.
    budget: 1 * KB,
  },
  {
    name: 'React action and balance hooks (`ClientProvider`, `useConnect`, `useSignMessage`, `useBalance`, `useSwitchChain`, `useSendTransaction`, `useWaitForTransaction`)',
    source: from(
      [
        'ClientProvider',
        'useConnect',
        'useSignMessage',
        'useBalance',
        'useSwitchChain',
        'useSendTransaction',
        'useWaitForTransaction',
      ],
      'scope-connect/react',
    ),
    subpath: './react',
    external: REACT_PEERS,
    // 2.26 / 2.22 KB.
    budget: 2.5 * KB,
  },
  {
    // wagmi and viem are the app's own (a wagmi app has them): left out, as React is for the hooks.
    name: 'wagmi connector (`scopeConnect` from `scope-connect/wagmi`; `@wagmi/core`, `viem` external)',
    source: "export { scopeConnect } from 'scope-connect/wagmi'",
    subpath: './wagmi',
    external: WAGMI_PEERS,
    // ~3.1 KB measured from src with esbuild: the provider's routing, the connector, AppError.
    budget: 3.5 * KB,
  },
  {
    name: '`Client` and the wagmi connector (a wagmi app; `@wagmi/core`, `viem` external)',
    source: `${from(['Client'], 'scope-connect/client')}\nexport { scopeConnect } from 'scope-connect/wagmi'`,
    subpath: './wagmi',
    external: WAGMI_PEERS,
  },
  {
    name: 'React hooks with `@xstate/react` bundled (`react` external)',
    source: "export * from 'scope-connect/react'",
    subpath: './react',
    external: ['react'],
  },
  {
    name: '`Client` and the React hooks (a React app; `react`, `@xstate/react` external)',
    source: `${from(['Client'], 'scope-connect/client')}\nexport * from 'scope-connect/react'`,
    subpath: './react',
    external: REACT_PEERS,
  },
]

/** Other stacks, measured the same way from `bench/competitors` (installed on demand). */
export const COMPETITOR_SCENARIOS: Scenario[] = [
  {
    name: 'wagmi core + injected connector',
    source: `import { connect, createConfig, http, injected } from '@wagmi/core'
import { mainnet } from 'viem/chains'
export const config = createConfig({ chains: [mainnet], connectors: [injected()], transports: { [mainnet.id]: http() } })
export { connect }`,
  },
  {
    name: 'wagmi core + injected + balance and signing',
    source: `import { connect, createConfig, getBalance, http, injected, signMessage } from '@wagmi/core'
import { mainnet } from 'viem/chains'
export const config = createConfig({ chains: [mainnet], connectors: [injected()], transports: { [mainnet.id]: http() } })
export { connect, getBalance, signMessage }`,
  },
  {
    name: 'Reown AppKit (`createAppKit`, one network)',
    source: `import { createAppKit } from '@reown/appkit'
import { mainnet } from '@reown/appkit/networks'
export const modal = createAppKit({ projectId: 'example', networks: [mainnet] })`,
  },
  {
    name: 'WalletConnect sign-client',
    source: "export { SignClient } from '@walletconnect/sign-client'",
  },
  {
    name: "mipd's EIP-6963 store",
    source: "import { createStore } from 'mipd'\nexport const store = createStore()",
  },
]
