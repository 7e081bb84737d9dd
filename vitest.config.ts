import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { SlowFilesFirst } from './test/support/sequencer'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The library is tested from source: the same aliases as tsconfig "paths".
export const alias = {
  'scope-connect/client': here('./src/client/index.ts'),
  'scope-connect/connectors': here('./src/connectors/index.ts'),
  'scope-connect/wire': here('./src/wire/index.ts'),
  'scope-connect/machines': here('./machines/index.ts'),
  'scope-connect/wallet': here('./src/wallet/index.ts'),
  'scope-connect/qr': here('./src/qr/index.ts'),
  'scope-connect/react': here('./src/react/index.ts'),
  'scope-connect/ui': here('./src/ui/index.ts'),
  'scope-connect/wagmi': here('./src/wagmi/index.ts'),
  'scope-connect/testing': here('./src/testing/index.ts'),
  'scope-connect/internal': here('./src/internal/index.ts'),
  '@scope-connect/server/testing': here('./server/src/testing.ts'),
  '@scope-connect/server': here('./server/src/index.ts'),
  'scope-connect': here('./src/index.ts'),
}

const ALL = [
  'test/**/*.test.ts',
  'server/test/**/*.test.ts',
  // The examples' own tests (the React example's generated UI tests).
  'examples/*/test/**/*.test.{ts,tsx}',
]

/**
 * Files that need a module graph of their own: another environment (`@vitest-environment`), module
 * mocks, stubbed globals, or a registry they must find as a page starts it (custom elements,
 * partner wallets). Every other file shares its worker's modules (`isolate: false`: viem, fastify
 * and the library load once per worker, not once per file); `test/support/shared-worker-hygiene.ts`
 * fails a shared file that leaves a global or fake timers behind.
 */
const ISOLATED = [
  'examples/react-dapp/test/ui.generated.test.tsx',
  'test/balances-fresh.test.ts',
  'test/client.reconnect.test.ts',
  'test/client.upgrade.test.ts',
  'test/connectors/coinbase-sdk.test.ts',
  'test/connectors/solana-mobile.test.ts',
  'test/http/balance-reader.test.ts',
  'test/react-hooks.test.ts',
  'test/react-transactions.test.ts',
  'test/react.test.ts',
  'test/regressions/issue-27.public-surface-cases.testing.test.ts',
  // The wallet registry as a page starts it: no partner wallet registered by an earlier file.
  'test/registry/docs.test.ts',
  'test/registry/targets.test.ts',
  'test/sign-in/client-sign-in.test.ts',
  'test/sign-in/use-sign-in.test.ts',
  'test/ssr.test.ts',
  'test/testing/wallets.test.ts',
  'test/ui/*.test.ts',
]

const resolve = {
  alias: {
    ...alias,
    // `// @vitest-environment happy-dom-node`: see the module.
    'vitest-environment-happy-dom-node': here('./test/support/happy-dom-environment.ts'),
  },
}

/** What both projects run with; they do not extend the root, whose `globalSetup` runs once. */
const common = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const

export default defineConfig({
  resolve,
  test: {
    // One redis-server, one Redis Cluster and one anvil for the run, provided to both projects
    // (test/support/shared-services.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Set explicitly: one fork per core (Vitest 1,016 s on one, 635-657 s on two). CONTRIBUTING.md
    // has the figures and the tests two workers found timing real work.
    maxWorkers: 2,
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        resolve,
        test: {
          ...common,
          name: 'shared',
          include: ALL,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
          setupFiles: ['test/support/shared-worker-hygiene.ts'],
        },
      },
      { resolve, test: { ...common, name: 'isolated', include: ISOLATED } },
    ],
  },
})
