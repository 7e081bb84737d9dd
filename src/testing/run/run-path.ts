import type { ClientTimeouts } from '../../../machines/client/client.types'
import type { ClientView } from '../../../machines/client/client.view'
import { Client, type ClientOptions } from '../../client/client'
import { createMemoryConnectionStore } from '../../connection/memory-store'
import { isAppError } from '../../errors/app-error'
import type { Caip2ChainId } from '../../registry/types'
import { relayUrlForBaseUrl } from '../../relay/client/token-source'
import { createMemoryUniversalLinkStore } from '../../universal-link/memory-store'
import { API_PREFIX, ROUTES } from '../../wire/routes'
import { checkArgument } from '../arguments'
import type { BackendFault } from '../doubles/answers'
import {
  type BackendDouble,
  createBackendDouble,
  faultAnswer,
  TEST_APP_KEY,
  TEST_BASE_URL,
} from '../doubles/backend-double'
import { TEST_SOLANA_KEYS } from '../doubles/keys'
import { TEST_PARTNER_WALLET } from '../doubles/partner-wallet'
import { createPhoneWallet, type PhoneAnswer } from '../doubles/phone-wallet'
import { createRelayDouble, type RelayDouble } from '../doubles/relay-double'
import { createTestWallet, type TestWallet } from '../doubles/test-wallet'
import { LINK_POLL_MS } from '../paths/steps'
import type { ClientPath, ClientPathStep, FaultStep, UserAction } from '../paths/types'
import { type ClientPathWorld, defaultWorld, PATH_TIMEOUTS } from '../paths/world'
import type { ClientCoverage } from './coverage'
import { viewDifferences } from './same-view'
import { type ShownReaders, shownDifferences } from './shown'

/**
 * The app's side of a replay. `mount` renders the app's UI on the client (again after a reload,
 * on the new client); `act` performs a user action through that UI (a click whose handler does
 * what `action.run(client)` does; it must not wait for the flow to end, and must handle the
 * method's rejection as the app does); `expect` asserts that the UI shows `view`.
 */
export interface ClientPathDriver {
  mount(client: Client): void | Promise<void>
  act(action: UserAction, client: Client): void | Promise<void>
  /**
   * `wait` is the run's clock (`RunClientPathOptions.wait`): a driver that retries while the UI
   * catches up waits with it, so the retry runs on virtual time too.
   */
  expect(
    view: ClientView,
    step: ClientPathStep | null,
    wait: (ms: number) => Promise<void>,
  ): void | Promise<void>
  /** Removes the UI (before a reload's new mount, and at the end). */
  unmount?(): void | Promise<void>
}

/** Options of `runClientPath`. */
export interface RunClientPathOptions {
  /**
   * A real backend (`startTestBackend()` of `@scope-connect/server/testing`): its URL and app key.
   * Default: the backend test double, in process.
   */
  backend?: { baseUrl: string; appKey: string; fetchImpl?: typeof fetch }
  /** The named timeouts of the Client; default `PATH_TIMEOUTS` (short, for time steps). */
  timeouts?: Partial<ClientTimeouts>
  /**
   * How time passes: every wait of the run goes through it (a time step, the polls while the
   * Client settles, the driver's retries), and the run counts time by what it waited. Default a
   * real wait (`setTimeout`). On virtual time: `vi.useFakeTimers()` and
   * `wait: (ms) => vi.advanceTimersByTimeAsync(ms)` under Vitest; `openClientPaths(page, url,
   * { clock: true })` in Chromium (Playwright's `page.clock`).
   */
  wait?(ms: number): Promise<void>
  /** How long (as `wait` counts it) the Client may take to show a step's view before the run fails; default 3 000 ms. */
  settleMs?: number
  /** Records what the run covered. */
  coverage?: ClientCoverage
  /** More Client options (over the run's own). */
  client?: Partial<ClientOptions>
  /**
   * The world to play the path in: its wallet id and chains (the test wallet's), its phone wallet
   * and Solana chain. Default the path's own (`getClientPaths({ world })` puts it on each path),
   * else `defaultWorld()`. Its accounts are the test keys' (`TEST_EVM_KEYS`): the wallet signs.
   */
  world?: ClientPathWorld
  /**
   * Opt-in: after each step (and before the first), what the app SHOWS — its balance, its
   * transaction toast, each read by a function of the app's — must agree with the world (the
   * backend's balance of the view's account, the transaction's stage) within `settleMs`; else the
   * step fails with `ClientPathError` naming both values.
   */
  expectShown?: ShownReaders
}

/** What a run leaves for the test to look at. */
export interface ClientPathRun {
  wallet: TestWallet
  /** The backend double (null with `options.backend`). */
  backend: BackendDouble | null
  /** The relay double (null with `options.backend`). */
  relay: RelayDouble | null
  /** Every view the Clients showed, in order. */
  views: ClientView[]
}

/**
 * A replay that went wrong: the path, the step, and why.
 *
 * @throws AppError `INVALID_CONFIG` (from the constructor) when `path` is not a path, `stepIndex`
 * not an integer ≥ -1, or `reason` not a string.
 */
export class ClientPathError extends Error {
  constructor(
    readonly path: ClientPath,
    readonly stepIndex: number,
    reason: string,
  ) {
    checkArgument('path', path, 'ClientPathError path')
    checkArgument('stepIndex', stepIndex, 'ClientPathError stepIndex')
    checkArgument('string', reason, 'ClientPathError reason')
    const where =
      stepIndex < 0
        ? 'before the first step'
        : `after step ${stepIndex + 1} (${path.steps[stepIndex]?.description})`
    super(`${path.description}\n  ${where}: ${reason}`)
    this.name = 'ClientPathError'
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
/** Past a named timeout: the Client's timer fires, then its flow settles. */
const TIMEOUT_MARGIN_MS = 150
/** A view that matched must hold this long (the Client has not moved on). */
const STEADY_MS = 15
/** How often the run looks again while it waits for the Client. */
const POLL_MS = 5

/**
 * Replays `path` on a fresh `Client` — a held test wallet (`createTestWallet`: each prompt waits for
 * the path's wallet step), the backend test double (or `options.backend`) — and the app's UI
 * through `driver`: user actions go to `driver.act`, wallet, backend and time steps are played
 * here, a reload builds a new Client and mounts it again. After each step it waits until the
 * Client shows the step's view (else throws `ClientPathError`: the Client and the chart disagree),
 * then calls `driver.expect(view)`, where the app asserts its UI.
 *
 * Rejects with AppError `INVALID_CONFIG` when `path` is not a path (`getClientPaths`), `driver`
 * lacks `mount` / `act` / `expect` functions, or `options` has a field of the wrong type.
 */
export async function runClientPath(
  path: ClientPath,
  driver: ClientPathDriver,
  options: RunClientPathOptions = {},
): Promise<ClientPathRun> {
  checkArgument('path', path, 'runClientPath path')
  checkArgument('driver', driver, 'runClientPath driver')
  checkArgument('runOptions', options, 'runClientPath options')
  const world = options.world ?? path.world ?? defaultWorld()
  const wallet = createTestWallet({
    namespace: world.namespace,
    walletId: world.walletId,
    chains: world.chains as readonly `${string}:${string}`[],
  })
  wallet.answer = 'hold'
  const backend = options.backend ? null : createBackendDouble()
  const relay = options.backend ? null : createRelayDouble()
  const baseUrl = options.backend?.baseUrl ?? TEST_BASE_URL
  const appKey = options.backend?.appKey ?? TEST_APP_KEY
  const fetchImpl = options.backend?.fetchImpl ?? backend?.fetch
  // A `sessions` fault step fails the Client's next session creation, whichever backend it uses.
  let failSessionWith: BackendFault | null = null
  const clientFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const fault = failSessionWith
    if (fault !== null && isSessionCreation(input, init)) {
      failSessionWith = null
      const failed = faultAnswer(fault)
      if (failed) return failed
    }
    return (fetchImpl ?? fetch)(input, init)
  }) as typeof fetch
  const timeouts = { ...PATH_TIMEOUTS, ...options.timeouts }
  const wait = options.wait ?? sleep
  const settleMs = options.settleMs ?? 3_000
  const views: ClientView[] = []
  // What the page keeps across a reload: the desktop connection (for `resume()`'s reconnect), the
  // universal-link flow (for `resume()`'s restore).
  const connectionStore = createMemoryConnectionStore()
  const linkStore = createMemoryUniversalLinkStore()
  // The universal-link flow runs on a phone: the Client opens the wallet's links, the phone
  // wallet answers the last one opened by posting its callback to the backend.
  const mobile = path.flow === 'universalLink'
  const links: string[] = []
  const phone = createPhoneWallet({
    secretKey: TEST_SOLANA_KEYS[0] as Uint8Array,
    walletSlug: world.phone.walletId,
    ...(fetchImpl ? { fetchImpl } : {}),
  })
  const make = () =>
    new Client({
      baseUrl,
      appKey,
      fetchImpl: clientFetch,
      connectors: [wallet.connector()],
      // The phone flow's wallet: the test kit's partner (`sc*` links), as a project's config lists it.
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: world.phone.chainId as Caip2ChainId,
      ...(relay ? { relayUrl: relayUrlForBaseUrl(TEST_BASE_URL), WebSocket: relay.WebSocket } : {}),
      mobile,
      universalLink: {
        store: linkStore,
        openLink: (url) => {
          links.push(url)
        },
        pollIntervalMs: LINK_POLL_MS,
      },
      timeouts,
      connectionStore,
      // The transaction's wallet wait is the root's (a time step passes either); none is kept.
      transactions: { timeouts: { walletAnswerMs: timeouts.walletAnswerMs }, store: null },
      ...options.client,
    })
  let client = make()
  let clientViews: ClientView[] = []
  let unsubscribe = () => {}
  const observe = (next: Client) => {
    clientViews = []
    unsubscribe = next.subscribe((view) => {
      views.push(view)
      clientViews.push(view)
    })
  }
  const stop = (old: Client) => {
    unsubscribe()
    options.coverage?.record(clientViews)
    old.actor.stop()
  }

  const settle = async (expected: ClientView, index: number) => {
    for (let waited = 0; ; ) {
      if (viewDifferences(client.getView(), expected).length === 0) {
        await wait(STEADY_MS)
        waited += STEADY_MS
        if (viewDifferences(client.getView(), expected).length === 0) return
      }
      if (waited > settleMs) break
      await wait(POLL_MS)
      waited += POLL_MS
    }
    const differences = viewDifferences(client.getView(), expected)
    throw new ClientPathError(
      path,
      index,
      `the Client shows another view than the chart: ${differences.join('; ')}`,
    )
  }

  /** Polls `condition` until it holds or `settleMs` passes; whether it holds. */
  const eventually = async (condition: () => boolean, pollMs = POLL_MS) => {
    for (let waited = 0; !condition() && waited < settleMs; waited += pollMs) await wait(pollMs)
    return condition()
  }

  const answerLink = async (link: string, behaviour: PhoneAnswer, index: number) => {
    const status = await phone.answer(link, behaviour)
    if (status !== 204)
      throw new ClientPathError(path, index, `the backend answered the callback ${status}`)
  }

  /** The wallet answers its prompt; a pairing URI on screen is scanned first (the QR code). */
  let scanned: string | null = null
  const answer = async (behaviour: 'approve' | 'reject' | 'error', index: number) => {
    if (mobile) {
      const link = links.at(-1)
      if (link === undefined)
        throw new ClientPathError(path, index, 'the phone wallet has no link to answer')
      await answerLink(link, behaviour, index)
      // A further signature renews the session: the phone connects it, then the sign link follows.
      const signing = ['signing', 'awaitingSignature'].includes(client.getView().status)
      if (behaviour === 'approve' && signing && linkMethod(link) === 'connect') {
        const opened = links.length
        const next = (await eventually(() => links.length > opened)) ? links.at(-1) : undefined
        if (next === undefined)
          throw new ClientPathError(path, index, 'the Client opened no link to sign after renewing')
        await answerLink(next, behaviour, index)
      }
      return
    }
    const uri = client.getView().pairingUri
    if (uri !== null && uri !== scanned && wallet.held === 0) {
      scanned = uri
      const WebSocket = relay?.WebSocket ?? options.client?.WebSocket
      wallet
        .pair(uri, {
          baseUrl,
          appKey,
          ...(fetchImpl ? { fetchImpl } : {}),
          ...(WebSocket ? { WebSocket } : {}),
        })
        .catch(() => {})
    }
    // A prompt over the relay arrives a moment after the step that caused it.
    await eventually(() => wallet.held > 0)
    if (!wallet.release(behaviour))
      throw new ClientPathError(path, index, 'the wallet shows no prompt to answer')
  }

  /**
   * A fault, played by the doubles: the read fails with an `AppError` while the backend fails,
   * then succeeds once it is back; a dropped relay socket is replaced by a new one. With a real
   * backend (`options.backend`) a read cannot fail on cue and must succeed. A session creation
   * fails at the Client's own fetch, whichever backend it uses: the connect must reject.
   */
  const playFault = async (step: FaultStep, index: number) => {
    if (step.at === 'relaySocket') {
      if (!relay) return
      const before = relay.sockets.length
      relay.closeAll(1006, 'test double: socket dropped')
      const reopened = () => relay.sockets.slice(before).some((s) => s.readyState === 1)
      if (!(await eventually(reopened, 10)))
        throw new ClientPathError(path, index, 'the relay client did not open a new socket')
      return
    }
    if (step.at === 'sessions') {
      failSessionWith = step.fault
      const failure = await client.connect().then(
        () => null,
        (error: unknown) => error,
      )
      failSessionWith = null
      if (!isAppError(failure))
        throw new ClientPathError(path, index, 'the connect did not fail with an AppError')
      return
    }
    const v = client.getView()
    const read = () =>
      step.at === 'config'
        ? client.loadConfig()
        : client.getBalance({
            chainId: v.chainId as Caip2ChainId,
            tokenAddress: 'native',
            account: v.address ?? '',
          })
    if (backend) {
      backend.fault = step.fault
      const failure = await read().then(
        () => null,
        (error: unknown) => error,
      )
      backend.fault = 'ok'
      if (!isAppError(failure))
        throw new ClientPathError(path, index, `the ${step.at} read did not fail with an AppError`)
    }
    await read().catch((error: unknown) => {
      throw new ClientPathError(path, index, `the ${step.at} read failed again: ${String(error)}`)
    })
  }

  /** The app shows what the world says (`options.expectShown`), within `settleMs`. */
  const shown = async (index: number) => {
    const readers = options.expectShown
    if (!readers) return
    const world = { baseUrl, appKey, fetchImpl: fetchImpl ?? fetch }
    let differences = await shownDifferences(readers, client, world)
    for (let waited = 0; differences.length > 0 && waited < settleMs; waited += POLL_MS) {
      await wait(POLL_MS)
      differences = await shownDifferences(readers, client, world)
    }
    if (differences.length > 0) throw new ClientPathError(path, index, differences.join('; '))
  }

  observe(client)
  try {
    await driver.mount(client)
    await settle(path.initial, -1)
    await driver.expect(client.getView(), null, wait)
    await shown(-1)
    for (const [index, step] of path.steps.entries()) {
      switch (step.kind) {
        case 'user':
          await driver.act(step, client)
          break
        case 'wallet':
          if (
            step.behaviour === 'approve' ||
            step.behaviour === 'reject' ||
            step.behaviour === 'error'
          )
            await answer(step.behaviour, index)
          else wallet.act(step.behaviour)
          break
        case 'fault':
          await playFault(step, index)
          break
        case 'time':
          await wait(timeouts[step.timeout] + TIMEOUT_MARGIN_MS)
          break
        case 'reload':
          await driver.unmount?.()
          stop(client)
          // The stores keep a desktop connection only where the path restores one.
          if (step.reconnect === undefined) connectionStore.clear()
          if (step.reconnect === 'locked') wallet.act('lock')
          client = make()
          observe(client)
          await client.resume()
          await driver.mount(client)
          break
      }
      await settle(step.expected, index)
      try {
        await driver.expect(step.expected, step, wait)
      } catch (error) {
        throw new ClientPathError(
          path,
          index,
          `the UI does not show the view: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
      await shown(index)
    }
  } finally {
    await driver.unmount?.()
    stop(client)
    wallet.unpair()
  }
  return { wallet, backend, relay, views }
}

/** Whether a request of the Client is `POST /sessions` (ky hands fetch a `Request`). */
function isSessionCreation(input: RequestInfo | URL, init?: RequestInit): boolean {
  const request = input instanceof Request ? input : null
  const method = (request?.method ?? init?.method ?? 'GET').toUpperCase()
  const url = request?.url ?? String(input)
  return method === 'POST' && new URL(url).pathname === `${API_PREFIX}${ROUTES.sessions}`
}

/** The `scMethod` of a universal link the Client opened (`connect`, `signMessage`, …). */
const linkMethod = (link: string): string | null => new URL(link).searchParams.get('scMethod')
