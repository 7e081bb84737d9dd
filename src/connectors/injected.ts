import { Eip1193Connector } from './eip1193'
import type { Eip1193Provider } from './types'

/**
 * The default desktop connector: the EIP-1193 provider the browser extension put on
 * `window.ethereum`, or the provider you pass. `window` is read at use, never at construction, so
 * the connector can be created during server-side rendering.
 */
export class InjectedConnector extends Eip1193Connector {
  constructor(provider?: Eip1193Provider) {
    super('injected', () => provider ?? getWindowEthereum())
  }
}

function getWindowEthereum(): Eip1193Provider | undefined {
  if (typeof window === 'undefined') return undefined
  const candidate = (window as { ethereum?: unknown }).ethereum
  return isEip1193Provider(candidate) ? candidate : undefined
}

/** True for an object with a `request` function, the one member EIP-1193 requires. */
export function isEip1193Provider(value: unknown): value is Eip1193Provider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { request?: unknown }).request === 'function'
  )
}
