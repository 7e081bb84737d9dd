// The chunk the client loads when a wallet takes the WalletConnect path (`ClientOptions.walletConnect`):
// the option's check (zod/mini) and the connector. Neither is in the `Client` entry (issue 26 item 1).
import * as z from 'zod/mini'
import type { WalletConnectConnectorOptions } from '../../connectors/walletconnect'
import { WalletConnectConnector } from '../../connectors/walletconnect'
import {
  startSignClient,
  type WalletConnectSignClient,
} from '../../connectors/walletconnect-sign-client'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { Caip2ChainId, ChainNamespace } from '../../registry/types'
import { parseParameters } from '../../wire/parse-parameters'
import { Caip2Schema } from '../../wire/primitives'

const fn = /* @__PURE__ */ z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function')
const text = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1))

/** `ClientOptions.walletConnect`: what is checked before the connector is built. */
const WalletConnectOptionSchema = /* @__PURE__ */ z.looseObject({
  projectId: text,
  metadata: /* @__PURE__ */ z.looseObject({
    name: text,
    description: /* @__PURE__ */ z.string(),
    url: text,
    icons: /* @__PURE__ */ z.array(/* @__PURE__ */ z.string()),
  }),
  relayUrl: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^wss?:\/\//)),
  ),
  chains: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(Caip2Schema).check(/* @__PURE__ */ z.minLength(1)),
  ),
  importSignClient: /* @__PURE__ */ z.optional(fn),
  proposalExpirySeconds: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.positive()),
  ),
})

const DEFAULT_CHAIN: Record<ChainNamespace, Caip2ChainId> = {
  eip155: 'eip155:1',
  solana: SOLANA_MAINNET_CHAIN_ID,
}

/**
 * The chains of the connector for `namespace`: the option's chains of that namespace first (the
 * connector's namespace is its first chain's), then the others; the namespace's mainnet when the
 * option lists none of it.
 */
export function walletConnectChains(
  chains: readonly Caip2ChainId[] | undefined,
  namespace: ChainNamespace,
): Caip2ChainId[] {
  const all = chains ?? [DEFAULT_CHAIN.eip155]
  const own = all.filter((chain) => chain.startsWith(`${namespace}:`))
  const others = all.filter((chain) => !chain.startsWith(`${namespace}:`))
  return [...(own.length > 0 ? own : [DEFAULT_CHAIN[namespace]]), ...others]
}

/** The sign-client loader of each `walletConnect` option: one sign-client for all its connectors. */
const sharedLoaders = /* @__PURE__ */ new WeakMap<object, () => Promise<unknown>>()

/**
 * An `importSignClient` whose `SignClient.init` starts the option's sign-client once and hands the
 * same one to every later caller, so the connectors of both namespaces share one client (one Core,
 * one relay socket) rather than starting one each. A failed start is not kept.
 */
function sharedSignClientImport(option: WalletConnectConnectorOptions): () => Promise<unknown> {
  let loader = sharedLoaders.get(option)
  if (!loader) {
    let started: Promise<WalletConnectSignClient> | undefined
    const SignClient = {
      init(options: Record<string, unknown>): Promise<WalletConnectSignClient> {
        if (!started) {
          const attempt = startSignClient(option.importSignClient, options)
          attempt.catch(() => {
            if (started === attempt) started = undefined
          })
          started = attempt
        }
        return started
      },
    }
    loader = async () => ({ SignClient })
    sharedLoaders.set(option, loader)
  }
  return loader
}

/**
 * The `WalletConnectConnector` of the client's `walletConnect` option for `namespace`; the
 * connectors of one option share one sign-client.
 * @throws {AppError} `INVALID_CONFIG` naming the field when the option is malformed.
 */
export function createClientWalletConnect(
  option: WalletConnectConnectorOptions,
  namespace: ChainNamespace,
): WalletConnectConnector {
  parseParameters(WalletConnectOptionSchema, option, 'walletConnect')
  return new WalletConnectConnector({
    ...option,
    chains: walletConnectChains(option.chains, namespace),
    importSignClient: sharedSignClientImport(option),
  })
}
