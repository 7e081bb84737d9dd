/**
 * The ids of the built-in brands (src/registry/wallets.ts; test/registry/partners.test.ts keeps the
 * two equal). Apart from the data so that checking a partner wallet's id, which the `Client` does at
 * construction, does not load the registry into the `Client` entry.
 */
export const BRAND_IDS = [
  'metamask',
  'phantom',
  'coinbase',
  'rabby',
  'trust',
  'okx',
  'rainbow',
  'backpack',
  'solflare',
  'zerion',
  'brave',
  'uniswap',
  'exodus',
] as const
