import type { Caip2ChainId, SupportWalletInfo } from '../registry/types'
import type { PhantomLinkConnectorOptions } from './face/connector'

/** `PhantomLinkConnector` options for a registry wallet with a `phantomLink` entry. */
export function phantomLinkOptions(
  info: SupportWalletInfo,
  options: {
    solanaChainId?: Caip2ChainId | undefined
    phantomLink?: Omit<PhantomLinkConnectorOptions, 'walletId' | 'baseUrl' | 'chainId'> | undefined
  },
): PhantomLinkConnectorOptions {
  return {
    ...options.phantomLink,
    walletId: info.id,
    baseUrl: info.phantomLink?.baseUrl ?? '',
    ...(options.solanaChainId ? { chainId: options.solanaChainId } : {}),
  }
}
