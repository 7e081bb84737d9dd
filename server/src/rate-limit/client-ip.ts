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

/**
 * The caller's address. X-Forwarded-For is read only when `trustProxy` names the proxies (exact
 * addresses or CIDRs) and the socket peer is one of them; it is then walked from the right,
 * skipping trusted proxies, and the first address not trusted is the caller. The leftmost entries
 * are whatever the client sent, so trusting the header wholesale (`true`) is never offered.
 */
export function resolveClientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  trustProxy: readonly string[] | undefined,
): string {
  let current = bareAddress(remoteAddress ?? '') || 'unknown'
  if (!trustProxy || trustProxy.length === 0 || !forwardedFor) return current
  const trusted = trustedProxies(trustProxy)
  if (!trusted(current)) return current

  const hops = (typeof forwardedFor === 'string' ? [forwardedFor] : forwardedFor)
    .flatMap((value) => value.split(','))
    .map((hop) => bareAddress(hop))
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    // Garbage means the header was not written by a proxy we trust: stop at the last good hop.
    if (!parseIp(hop)) return current
    current = hop
    if (!trusted(current)) return current
  }
  return current
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
