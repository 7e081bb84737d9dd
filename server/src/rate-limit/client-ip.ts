import { isIPv4, isIPv6 } from 'node:net'

interface ParsedIp {
  family: 4 | 6
  value: bigint
}

interface Cidr extends ParsedIp {
  prefix: number
}

const MAPPED_V4_PREFIX = 0xffffn // ::ffff:0:0/96, after shifting out the low 32 bits

/**
 * The rate-limit key of a caller address. IPv4 (including IPv4-mapped IPv6) is kept whole; IPv6
 * is masked to its /64, since one subscriber usually owns a whole /64 and could otherwise rotate
 * through 2^64 addresses. Zone ids and brackets are dropped; the result is canonical
 * (RFC 5952), so every spelling of one network gives one key.
 */
export function clientIpKey(ip: string): string {
  const parsed = parseIp(ip)
  if (!parsed) return ip.trim().toLowerCase() || 'unknown'
  if (parsed.family === 4) return formatIPv4(parsed.value)
  const network = (parsed.value >> 64n) << 64n
  return `${formatIPv6(network)}/64`
}

/** The request headers a proxy's hops are read from (Node's `IncomingHttpHeaders` fits). */
export interface ForwardingHeaders {
  'x-forwarded-for'?: string | readonly string[] | undefined
  forwarded?: string | readonly string[] | undefined
}

/**
 * The caller's address. The forwarding headers are read only when `trustProxy` names the proxies
 * (exact addresses or CIDRs) and the socket peer is one of them: X-Forwarded-For, and RFC 7239
 * `Forwarded: for=` alike. Each is walked from the right, skipping trusted proxies, and the first
 * hop not trusted is the caller (an obfuscated `for=_id` written by a trusted proxy is the caller
 * as it is; `unknown` or garbage stops the walk at the last trusted hop). The leftmost entries are
 * whatever the client sent, so trusting a header wholesale (`true`) is never offered.
 *
 * A proxy writes one of the two headers and passes the other through as the client sent it. So
 * when both are present they must name the same caller; when they do not, one of them is the
 * client's invention and the caller is the trusted peer itself (a client cannot mint callers by
 * adding the header its proxy does not write). `headers` may be the X-Forwarded-For value alone.
 */
export function resolveClientIp(
  remoteAddress: string | undefined,
  headers: ForwardingHeaders | string | readonly string[] | undefined,
  trustProxy: readonly string[] | undefined,
): string {
  const peer = bareAddress(remoteAddress ?? '') || 'unknown'
  if (!trustProxy || trustProxy.length === 0 || !headers) return peer
  const { 'x-forwarded-for': xff, forwarded } =
    typeof headers === 'string' || Array.isArray(headers)
      ? { 'x-forwarded-for': headers as string | readonly string[], forwarded: undefined }
      : (headers as ForwardingHeaders)
  if (!xff && !forwarded) return peer
  const trusted = trustedProxies(trustProxy)
  if (!trusted(peer)) return peer
  const xffHops = xff ? splitList(xff).map((hop) => (parseIp(hop) ? bareAddress(hop) : null)) : []
  const fromXff = xff ? walkHops(peer, xffHops, trusted) : undefined
  const fromForwarded = forwarded ? walkHops(peer, forwardedHops(forwarded), trusted) : undefined
  if (fromXff !== undefined && fromForwarded !== undefined) {
    return sameCaller(fromXff, fromForwarded) ? fromXff : peer
  }
  return fromXff ?? fromForwarded ?? peer
}

/**
 * Whether a trusted peer sent neither forwarding header (a proxy that forwards no client
 * address: every client behind it is one caller). The app logs it once per peer.
 */
export function trustedPeerWithoutHops(
  remoteAddress: string | undefined,
  headers: ForwardingHeaders,
  trustProxy: readonly string[],
): boolean {
  if (trustProxy.length === 0 || headers['x-forwarded-for'] || headers.forwarded) return false
  return trustedProxies(trustProxy)(bareAddress(remoteAddress ?? ''))
}

/** A hop as written: an address, an obfuscated identifier (`_x`), or null (`unknown`, garbage). */
type Hop = string | null

function walkHops(peer: string, hops: readonly Hop[], trusted: (ip: string) => boolean): string {
  let current = peer
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]
    // Garbage or `unknown` means no trusted proxy knew this hop: stop at the last good one.
    if (hop === null || hop === undefined) return current
    // An obfuscated identifier (RFC 7239 6.3) is the client as its trusted proxy names it.
    if (hop.startsWith('_')) return hop
    current = hop
    if (!trusted(current)) return current
  }
  return current
}

function sameCaller(a: string, b: string): boolean {
  if (a === b) return true
  const pa = parseIp(a)
  const pb = parseIp(b)
  return pa !== null && pb !== null && pa.family === pb.family && pa.value === pb.value
}

function splitList(value: string | readonly string[]): string[] {
  return (typeof value === 'string' ? [value] : value).flatMap((line) => line.split(','))
}

/**
 * The `for=` of each element of RFC 7239 `Forwarded` values, in order: elements split on commas
 * and pairs on semicolons outside quoted strings; parameter names case-insensitive; a quoted value
 * unescaped. A `for` of `[v6]:port`, `v4:port` (ports obfuscated or not) is reduced to its
 * address; `unknown`, a missing `for` or an element that does not parse is null.
 */
export function forwardedHops(value: string | readonly string[]): Hop[] {
  const hops: Hop[] = []
  for (const line of typeof value === 'string' ? [value] : value) {
    for (const element of splitOutsideQuotes(line, ',')) {
      if (element.trim() === '') continue
      hops.push(forElement(element))
    }
  }
  return hops
}

function forElement(element: string): Hop {
  let hop: Hop = null
  let seen = false
  for (const pair of splitOutsideQuotes(element, ';')) {
    const text = pair.trim()
    if (text === '') continue
    const eq = text.indexOf('=')
    if (eq <= 0) return null
    const name = text.slice(0, eq).trim().toLowerCase()
    const raw = text.slice(eq + 1).trim()
    const parsedValue = unquote(raw)
    if (parsedValue === null) return null
    if (name !== 'for') continue
    if (seen) return null // two `for` in one element: not written by a proxy we trust
    seen = true
    hop = forNode(parsedValue)
  }
  return hop
}

function forNode(node: string): Hop {
  const text = node.trim()
  if (text === '' || text.toLowerCase() === 'unknown') return null
  const bracketed = /^\[([^\]]+)\](?::(?:\d{1,5}|_[A-Za-z0-9._-]+))?$/.exec(text)
  if (bracketed) return parseIp(bracketed[1]!) ? bareAddress(bracketed[1]!) : null
  const withPort = /^([^:]+):(?:\d{1,5}|_[A-Za-z0-9._-]+)$/.exec(text)
  const name = withPort ? withPort[1]! : text
  if (/^_[A-Za-z0-9._-]+$/.test(name)) return name
  return parseIp(name) ? bareAddress(name) : null
}

/** A token as it is, a quoted string unescaped; null for an unterminated quote. */
function unquote(raw: string): string | null {
  if (!raw.startsWith('"')) return raw.includes('"') ? null : raw
  let out = ''
  for (let i = 1; i < raw.length; i++) {
    const ch = raw[i]!
    if (ch === '\\') {
      i++
      if (i >= raw.length) return null
      out += raw[i]
    } else if (ch === '"') {
      return raw.slice(i + 1).trim() === '' ? out : null
    } else out += ch
  }
  return null
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = []
  let start = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted && ch === '\\') i++
    else if (ch === '"') quoted = !quoted
    else if (!quoted && ch === separator) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/**
 * Whether a trustProxy list covers every address of a family (0.0.0.0/0, ::/0, ::ffff:0:0/96,
 * or ranges whose union is all of IPv4 or all of IPv6). Trusting every peer lets any client
 * name itself in X-Forwarded-For and mint new callers, so the app refuses such a list unless
 * the operator also says `trustProxyAny` (`--trust-proxy-any`). Throws as `trustedProxies` does.
 */
export function coversEveryAddress(list: readonly string[]): boolean {
  const ranges = list.map(parseCidr)
  return ([4, 6] as const).some((family) => {
    const bits = family === 4 ? 32n : 128n
    const spans = ranges
      .filter((range) => range.family === family)
      .map((range) => {
        const size = 1n << (bits - BigInt(range.prefix))
        const start = (range.value / size) * size
        return [start, start + size] as const
      })
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    let reached = 0n
    for (const [start, end] of spans) {
      if (start > reached) return false
      if (end > reached) reached = end
    }
    return reached === 1n << bits
  })
}

const matcherCache = new WeakMap<readonly string[], (ip: string) => boolean>()

/**
 * Compiles a trustProxy list into a matcher; throws on an entry that is not an address or CIDR,
 * so a typo in the configuration fails at start-up rather than trusting nothing (or everything).
 */
export function trustedProxies(list: readonly string[]): (ip: string) => boolean {
  const cached = matcherCache.get(list)
  if (cached) return cached
  const ranges = list.map(parseCidr)
  const matcher = (ip: string) => {
    const parsed = parseIp(ip)
    return parsed !== null && ranges.some((range) => inRange(parsed, range))
  }
  matcherCache.set(list, matcher)
  return matcher
}

function inRange(ip: ParsedIp, range: Cidr): boolean {
  if (ip.family !== range.family) return false
  const shift = BigInt((range.family === 4 ? 32 : 128) - range.prefix)
  return ip.value >> shift === range.value >> shift
}

function parseCidr(entry: string): Cidr {
  const [address = '', prefixText, extra] = entry.trim().split('/')
  const ip = parseIp(address)
  const mapped = ip !== null && address.includes(':') && ip.family === 4
  let prefix = ip?.family === 4 ? 32 : 128
  if (prefixText !== undefined) {
    prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) - (mapped ? 96 : 0) : -1
  }
  if (!ip || extra !== undefined || prefix < 0 || prefix > (ip.family === 4 ? 32 : 128)) {
    throw new TypeError(`trustProxy entry is not an IP address or CIDR: ${JSON.stringify(entry)}`)
  }
  return { ...ip, prefix }
}

/** Strips whitespace, brackets, a port and a zone id: "[fe80::1%eth0]:443" → "fe80::1". */
function bareAddress(input: string): string {
  let text = input.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) text = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'))
  const zone = text.indexOf('%')
  return zone === -1 ? text : text.slice(0, zone)
}

/** Parses an address; IPv4-mapped IPv6 comes back as IPv4. Null when it is not an address. */
function parseIp(input: string): ParsedIp | null {
  const text = bareAddress(input)
  if (isIPv4(text)) return { family: 4, value: ipv4Value(text) }
  if (!isIPv6(text)) return null
  const value = ipv6Value(text)
  if (value >> 32n === MAPPED_V4_PREFIX) return { family: 4, value: value & 0xffffffffn }
  return { family: 6, value }
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n)
}

function ipv6Value(text: string): bigint {
  // A dotted tail ("::ffff:1.2.3.4") stands for the last two hextets.
  const lastColon = text.lastIndexOf(':')
  const tail = text.slice(lastColon + 1)
  if (tail.includes('.')) {
    const v4 = ipv4Value(tail)
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const [left = '', right] = text.split('::')
  const l = left ? left.split(':') : []
  const r = right ? right.split(':') : []
  const hextets =
    right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r]
  return hextets.reduce((acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)), 0n)
}

function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.')
}

/** RFC 5952: lower-case, no leading zeros, the longest run (≥ 2) of zero groups as "::". */
function formatIPv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) =>
    Number((value >> BigInt(112 - 16 * i)) & 0xffffn),
  )
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) {
      bestStart = i
      bestLength = j - i
    }
    i = j
  }
  const hex = groups.map((group) => group.toString(16))
  if (bestStart === -1) return hex.join(':')
  const left = hex.slice(0, bestStart).join(':')
  const right = hex.slice(bestStart + bestLength).join(':')
  return `${left}::${right}`
}
