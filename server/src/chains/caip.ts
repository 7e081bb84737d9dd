/** CAIP-2 chain ids (`namespace:reference`), split once so adapters need not re-parse. */

export interface Caip2 {
  namespace: string
  reference: string
}

const CAIP2 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/

/** Returns undefined for anything that is not a CAIP-2 id. */
export function parseCaip2(chainId: string): Caip2 | undefined {
  const match = CAIP2.exec(chainId)
  if (!match) return undefined
  return { namespace: match[1]!, reference: match[2]! }
}
