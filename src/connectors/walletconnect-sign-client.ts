import { AppError, isAppError } from '../errors'
import { createLogger } from '../logging'

const log = /* @__PURE__ */ createLogger('walletconnect')

/** The optional peer dependency; held in a variable so bundlers leave it out of the library. */
const SIGN_CLIENT_MODULE = '@walletconnect/sign-client'

/** What the dApp shows in the wallet's approval prompt (WalletConnect's `metadata`). */
export interface WalletConnectMetadata {
  name: string
  description: string
  url: string
  icons: string[]
}

/**
 * Where sign-client keeps its keys, pairings and sessions (its `IKeyValueStorage`): give it one the
 * app controls to keep sessions across reloads in a known place. Values are JSON-safe.
 */
export interface WalletConnectStorage {
  getKeys(): Promise<string[]>
  getEntries<T = unknown>(): Promise<[string, T][]>
  getItem<T = unknown>(key: string): Promise<T | undefined>
  setItem<T = unknown>(key: string, value: T): Promise<void>
  removeItem(key: string): Promise<void>
}

/** One namespace of a settled session, as sign-client gives it. */
export interface WalletConnectSessionNamespace {
  accounts: string[]
  methods: string[]
  events: string[]
  chains?: string[]
}

/** The part of a sign-client session the connector reads. */
export interface WalletConnectSession {
  topic: string
  expiry: number
  namespaces: Record<string, WalletConnectSessionNamespace>
}

/** The proposal of one namespace (`optionalNamespaces`). */
export interface WalletConnectNamespaceProposal {
  chains: string[]
  methods: string[]
  events: string[]
}

/** The part of `@walletconnect/sign-client`'s `SignClient` the connector uses. */
export interface WalletConnectSignClient {
  connect(params: {
    optionalNamespaces: Record<string, WalletConnectNamespaceProposal>
    expiry?: number
  }): Promise<{ uri?: string; approval: () => Promise<WalletConnectSession> }>
  request<T>(params: {
    topic: string
    chainId: string
    request: { method: string; params: unknown }
    expiry?: number
  }): Promise<T>
  disconnect(params: { topic: string; reason: { code: number; message: string } }): Promise<void>
  on(event: string, listener: (args: never) => void): unknown
  off(event: string, listener: (args: never) => void): unknown
  session: { getAll(): WalletConnectSession[] }
  core: {
    pairing: { disconnect?(params: { topic: string }): Promise<void> }
    relayer: { transportClose?(): Promise<void> }
  }
  /** sign-client's engine: only its event check is read (`handleUnawaitedEventChecks`). */
  engine?: { isValidEmit?: (params: unknown) => Promise<void> }
}

interface SignClientStatic {
  init(options: Record<string, unknown>): Promise<WalletConnectSignClient>
}

/**
 * Imports `@walletconnect/sign-client` (or runs the app's `importSignClient`) and starts a client
 * with `options`.
 * @throws {AppError} `WALLET_UNAVAILABLE` when the peer is not installed (how to install it in the
 * message), does not export `SignClient`, or fails to start.
 */
export async function startSignClient(
  importSignClient: (() => Promise<unknown>) | undefined,
  options: Record<string, unknown>,
): Promise<WalletConnectSignClient> {
  let module: unknown
  try {
    module = await (importSignClient ?? importSignClientModule)()
  } catch (error) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `WalletConnect is not installed; install the optional peer dependency: npm install ${SIGN_CLIENT_MODULE}`,
      { cause: error },
    )
  }
  const SignClient = findSignClient(module)
  if (!SignClient)
    throw new AppError('WALLET_UNAVAILABLE', `${SIGN_CLIENT_MODULE} does not export SignClient.`)
  let client: WalletConnectSignClient
  try {
    client = await SignClient.init(options)
  } catch (error) {
    if (isAppError(error)) throw error
    throw new AppError('WALLET_UNAVAILABLE', 'WalletConnect sign-client failed to start.', {
      cause: error,
    })
  }
  handleUnawaitedEventChecks(client)
  return client
}

/**
 * sign-client 2.25 checks a wallet's session event without awaiting the check
 * (`onSessionEventRequest`): an event it refuses (for a session it has just deleted or not stored
 * yet, or an event or chain the session does not allow) rejects unhandled in the app, and the
 * event is emitted all the same (WalletConnect/walletconnect-monorepo#4240). The check's promise
 * gets a handler and is returned as it is, so a caller that awaits it still sees the failure. The
 * connector's `session_event` listener checks the topic and the chain itself.
 */
function handleUnawaitedEventChecks(client: WalletConnectSignClient): void {
  const engine = client.engine
  const check = engine?.isValidEmit
  if (!engine || typeof check !== 'function' || handledChecks.has(check)) return
  const handled = (params: unknown): Promise<void> => {
    const checked = check.call(engine, params)
    if (typeof checked?.catch === 'function') {
      checked.catch(() => log.debug('sign-client refused a session event'))
    }
    return checked
  }
  handledChecks.add(handled)
  engine.isValidEmit = handled
}

/** Checks already wrapped (an app's `importSignClient` may hand back one client twice). */
const handledChecks = /* @__PURE__ */ new WeakSet<object>()

function importSignClientModule(): Promise<unknown> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ SIGN_CLIENT_MODULE)
}

/** `SignClient` as a named export, or as `default` (its default export, or CommonJS interop). */
function findSignClient(module: unknown): SignClientStatic | undefined {
  const m = module as { SignClient?: unknown; default?: unknown } | null
  const d = m?.default as { SignClient?: unknown; init?: unknown } | undefined
  for (const candidate of [m?.SignClient, d?.SignClient, d]) {
    if (
      (typeof candidate === 'function' || typeof candidate === 'object') &&
      candidate !== null &&
      typeof (candidate as { init?: unknown }).init === 'function'
    )
      return candidate as SignClientStatic
  }
  return undefined
}
