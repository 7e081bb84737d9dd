import { checkArgument } from '../arguments'
import { type ClientPathOptions, exploreClient } from '../paths/generate'
import type { ClientPath, UserAction } from '../paths/types'
import { createClientCoverage } from '../run/coverage'
import { type ClientPathDriver, type RunClientPathOptions, runClientPath } from '../run/run-path'

/** A user action as it crosses from the page to the test (no function). */
export interface RemoteAction {
  type: UserAction['type']
  description: string
  chainId?: string
}

/** What the page exposes to the test (`window.__scopeConnectPaths`). */
interface PagePaths {
  descriptions: string[]
  /** Replays path `index`; resolves with null, or the failure's message. */
  run(index: number): Promise<string | null>
  coverageLine(): string
}

/** The page's globals: its paths, and the test's act (Playwright's `page.exposeFunction`). */
interface PageGlobals {
  __scopeConnectPaths?: PagePaths
  __scopeConnectAct?: (action: RemoteAction) => Promise<void>
  /** The test's `page.clock.runFor` (`openClientPaths` with `clock: true`). */
  __scopeConnectAdvance?: (ms: number) => Promise<void>
}
const pageGlobals = () => globalThis as PageGlobals

/** Options of `exposeClientPaths`. */
export interface ExposeClientPathsOptions {
  /** The page's driver (`createDomDriver`); its `act` serves when the test performs none. */
  driver: ClientPathDriver
  /** Which paths (`getClientPaths` options). */
  paths?: ClientPathOptions
  run?: RunClientPathOptions
}

/**
 * The page's half of the Playwright fixture: in the app's test page, generates the paths and
 * exposes them to the test (`window.__scopeConnectPaths`). Each run replays a path on a Client in
 * the page with `driver`, except that user actions go to the test when it performs them
 * (`openClientPaths` with `act`: real clicks from Playwright).
 *
 * @throws AppError `INVALID_CONFIG` when `options` has no `driver` of functions, or `paths` / `run`
 * options of the wrong shape (the field is named).
 */
export function exposeClientPaths(options: ExposeClientPathsOptions): ClientPath[] {
  checkArgument('exposeOptions', options, 'exposeClientPaths options')
  const { paths } = exploreClient(options.paths)
  const coverage = createClientCoverage(options.paths)
  const driver: ClientPathDriver = {
    ...options.driver,
    act: (action, client) => {
      const remote = pageGlobals().__scopeConnectAct
      return remote
        ? remote({
            type: action.type,
            description: action.description,
            ...(action.chainId ? { chainId: action.chainId } : {}),
          })
        : options.driver.act(action, client)
    },
  }
  pageGlobals().__scopeConnectPaths = {
    descriptions: paths.map((path) => path.description),
    async run(index) {
      // On the test's clock (Playwright's `page.clock`) when it installed one.
      const advance = pageGlobals().__scopeConnectAdvance
      const wait = options.run?.wait ?? (advance ? (ms: number) => advance(ms) : undefined)
      try {
        await runClientPath(paths[index] as ClientPath, driver, {
          ...options.run,
          ...(wait ? { wait } : {}),
          coverage,
        })
        return null
      } catch (error) {
        return error instanceof Error ? error.message : String(error)
      }
    },
    coverageLine: () => coverage.line(),
  }
  return paths
}

/** The part of Playwright's `Page` the fixture uses (so this module needs no Playwright import). */
export interface PlaywrightPage {
  /** Playwright's `page.clock` (for `openClientPaths` with `clock: true`). */
  clock?: {
    install(options?: { time?: number | string | Date }): Promise<void>
    runFor(ticks: number | string): Promise<void>
  }
  exposeFunction(name: string, callback: (...args: never[]) => unknown): Promise<unknown>
  goto(url: string): Promise<unknown>
  waitForFunction(expression: string): Promise<unknown>
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>
}

/** The test's handle on the page's paths. */
export interface PagePathsHandle {
  descriptions: string[]
  /** Replays path `index` in the page; throws the failure (`ClientPathError`'s message). */
  run(index: number): Promise<void>
  /** The coverage line of the paths run so far in this page. */
  coverageLine(): Promise<string>
}

/**
 * The test's half of the Playwright fixture: opens `url` (a page that called `exposeClientPaths`)
 * and returns its paths. With `act`, each user action is performed by the test — real input
 * through Playwright (`page.getByRole('button', { name: 'Connect' }).click()`) — else by the
 * page's driver. Wrap it in a fixture: `test.extend({ clientPaths: async ({ page }, use) =>
 * use(await openClientPaths(page, url, { act })) })`.
 *
 * With `clock: true` the runs play on virtual time: the page's clock is Playwright's
 * (`page.clock.install()` before the page loads), and every wait of a run is a
 * `page.clock.runFor(ms)` from the test, so a named timeout passes at once.
 *
 * Rejects with AppError `INVALID_CONFIG` when `page` is not a Playwright page, `url` not a string,
 * `options.act` not a function or `options.clock` not a boolean, or with `clock` a page without
 * `clock`.
 */
export async function openClientPaths(
  page: PlaywrightPage,
  url: string,
  options: { act?: (action: RemoteAction) => Promise<void>; clock?: boolean } = {},
): Promise<PagePathsHandle> {
  checkArgument('page', page, 'openClientPaths page')
  checkArgument('string', url, 'openClientPaths url')
  checkArgument('openOptions', options, 'openClientPaths options')
  if (options.clock) {
    checkArgument('clockPage', page, 'openClientPaths page')
    const clock = page.clock as NonNullable<PlaywrightPage['clock']>
    await clock.install()
    await page.exposeFunction('__scopeConnectAdvance', ((ms: number) => clock.runFor(ms)) as never)
  }
  if (options.act) await page.exposeFunction('__scopeConnectAct', options.act as never)
  await page.goto(url)
  await page.waitForFunction('globalThis.__scopeConnectPaths !== undefined')
  // The callbacks run in the page: they reach its globals, nothing of this module.
  const descriptions = await page.evaluate(
    () => (globalThis as PageGlobals).__scopeConnectPaths?.descriptions ?? [],
    null,
  )
  return {
    descriptions,
    async run(index) {
      const failure = await page.evaluate(
        (i: number) =>
          (globalThis as PageGlobals).__scopeConnectPaths?.run(i) ?? 'no paths in the page',
        index,
      )
      if (failure !== null) throw new Error(failure)
    },
    coverageLine: () =>
      page.evaluate(
        () => (globalThis as PageGlobals).__scopeConnectPaths?.coverageLine() ?? '',
        null,
      ),
  }
}
