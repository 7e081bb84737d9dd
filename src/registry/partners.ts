import { AppError } from '../errors/app-error'
import { BRAND_IDS } from './brand-ids'
import { deepFreeze } from './freeze'
import type { ChainNamespace, SupportWalletInfo } from './types'

/**
 * A partner wallet: one that integrates `scope-connect/wallet` and so completes the scope-connect
 * protocols, the `sc*` universal links with backend callbacks (`mobile`) and/or the `scr` relay
 * (`relay`). Declared by a project's config (`GET /config` `partnerWallets`) or the Client option
 * `partnerWallets`; no built-in brand declares them.
 */
export interface PartnerWalletInput {
  /** A slug (`a-z0-9-`, 1–64), distinct from every built-in wallet's id. */
  id: string
  name: string
  /** An icon URL (https or data:), shown by the modal. */
  icon?: string
  homepage?: string
  /** Namespaces the wallet serves; defaults to the union of `mobile` and `relay` namespaces. */
  namespaces?: readonly ChainNamespace[]
  /** The wallet's HTTPS universal link for the `sc*` parameters, and the namespaces it serves there. */
  mobile?: { universalLink: string; namespaces: readonly ChainNamespace[] }
  /** Namespaces on which it pairs over the `scr` relay. */
  relay?: { namespaces: readonly ChainNamespace[] }
}

// Checked by hand, not with zod: the registry is in the `Client` entry and zod/mini is not (its wire
// twin, `PartnerWalletSchema` in src/wire/schemas/config.ts, checks `GET /config`).
const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/
const HTTPS = /^https:\/\/[^\s/?#]+\S*$/
const ICON = /^(https:\/\/|data:image\/)/

function text(value: unknown, min: number, max: number, pattern?: RegExp): value is string {
  return (
    typeof value === 'string' &&
    value.length >= min &&
    value.length <= max &&
    (pattern === undefined || pattern.test(value))
  )
}

function namespaceList(value: unknown): value is ChainNamespace[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= 8 &&
    value.every((ns) => ns === 'eip155' || ns === 'solana')
  )
}

/** The first field of `entry` that is not valid, else `undefined`. */
function invalidField(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return '(entry)'
  const e = entry as Record<string, unknown>
  if (!text(e.id, 1, 64, SLUG)) return 'id'
  if (!text(e.name, 1, 200)) return 'name'
  if (e.icon !== undefined && !text(e.icon, 1, 100_000, ICON)) return 'icon'
  if (e.homepage !== undefined && !text(e.homepage, 1, 2048, HTTPS)) return 'homepage'
  if (e.namespaces !== undefined && !namespaceList(e.namespaces)) return 'namespaces'
  if (e.mobile !== undefined) {
    const mobile = e.mobile as Record<string, unknown> | null
    if (mobile === null || typeof mobile !== 'object') return 'mobile'
    if (!text(mobile.universalLink, 1, 2048, HTTPS)) return 'mobile.universalLink'
    if (!namespaceList(mobile.namespaces)) return 'mobile.namespaces'
  }
  if (e.relay !== undefined) {
    const relay = e.relay as Record<string, unknown> | null
    if (relay === null || typeof relay !== 'object') return 'relay'
    if (!namespaceList(relay.namespaces)) return 'relay.namespaces'
  }
  return undefined
}

/** A registered partner wallet: its registry entry plus its icon. */
export type PartnerWalletInfo = SupportWalletInfo & { icon?: string; partner: true }

const partners = new Map<string, PartnerWalletInfo>()
const builtInIds: ReadonlySet<string> = /* @__PURE__ */ new Set(BRAND_IDS)

/**
 * Adds partner wallets to the registry, after which every lookup (`getWalletInfo`,
 * `listSupportedWallets`, `walletSupportsRelay`, the modal's list, `selectWallet`) answers from the
 * built-in wallets and these. Merge rule: a partner id never shadows a built-in brand (a brand only
 * gets the scope-connect protocols by shipping them under its own partner id); registering an id
 * already registered as a partner replaces that entry (so the Client option, applied after the
 * project's config, wins). All entries are checked before any is added. Returns the frozen entries.
 * @throws AppError `INVALID_CONFIG` for an entry that is not a valid partner wallet, declares neither
 * `mobile` nor `relay`, repeats an id, or uses a built-in wallet's id.
 */
export function registerPartnerWallets(
  entries: readonly PartnerWalletInput[],
): PartnerWalletInfo[] {
  if (!Array.isArray(entries)) {
    throw new AppError('INVALID_CONFIG', 'partnerWallets must be an array of partner wallets.')
  }
  const seen = new Set<string>()
  const checked = entries.map((entry, index) => {
    const field = invalidField(entry)
    if (field !== undefined) {
      throw new AppError(
        'INVALID_CONFIG',
        `partnerWallets[${index}] is not a valid partner wallet (${field}).`,
      )
    }
    const value: PartnerWalletInput = entry
    if (builtInIds.has(value.id)) {
      throw new AppError(
        'INVALID_CONFIG',
        `partnerWallets[${index}]: "${value.id}" is a built-in wallet's id; a partner wallet needs its own id.`,
      )
    }
    if (seen.has(value.id)) {
      throw new AppError(
        'INVALID_CONFIG',
        `partnerWallets[${index}]: "${value.id}" is listed twice.`,
      )
    }
    seen.add(value.id)
    if (value.mobile === undefined && value.relay === undefined) {
      throw new AppError(
        'INVALID_CONFIG',
        `partnerWallets[${index}] declares neither mobile nor relay.`,
      )
    }
    const namespaces: readonly ChainNamespace[] =
      value.namespaces ??
      (['eip155', 'solana'] as const).filter(
        (ns) => value.mobile?.namespaces.includes(ns) || value.relay?.namespaces.includes(ns),
      )
    const info: PartnerWalletInfo = {
      id: value.id,
      name: value.name,
      homepage: value.homepage ?? '',
      namespaces: [...new Set<ChainNamespace>(namespaces)],
      ...(value.icon === undefined ? {} : { icon: value.icon }),
      ...(value.mobile === undefined
        ? {}
        : {
            mobile: {
              universalLink: value.mobile.universalLink,
              namespaces: [...new Set<ChainNamespace>(value.mobile.namespaces)],
            },
          }),
      ...(value.relay === undefined
        ? {}
        : { relay: { namespaces: [...new Set<ChainNamespace>(value.relay.namespaces)] } }),
      partner: true,
    }
    return deepFreeze(info)
  })
  for (const info of checked) partners.set(info.id, info)
  return checked
}

/** The registered partner wallets, in registration order (a fresh array). */
export function listPartnerWallets(): PartnerWalletInfo[] {
  return [...partners.values()]
}

/**
 * Removes partner wallets: the given ids, or every one when called with no argument (tests, a
 * project switch). Built-in wallets are never removed.
 */
export function clearPartnerWallets(ids?: readonly string[]): void {
  if (ids === undefined) partners.clear()
  else if (Array.isArray(ids)) for (const id of ids) partners.delete(id)
}

/** A partner wallet by id (internal). */
export function partnerById(id: string): PartnerWalletInfo | undefined {
  return partners.get(id)
}
