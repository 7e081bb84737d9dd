import { describe, expect, it } from 'vitest'
import { clientIpKey, resolveClientIp, trustedProxies } from '../../src/rate-limit/client-ip'

describe('clientIpKey', () => {
  it.each([
    // IPv4 is kept whole.
    ['203.0.113.7', '203.0.113.7'],
    ['  198.51.100.1 ', '198.51.100.1'],
    // IPv4-mapped IPv6 is the IPv4 address, in either spelling.
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    // IPv6 is masked to its /64, canonically written.
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8::/64'],
    ['2001:db8:0:0:1::', '2001:db8::/64'],
    ['2001:0:0:1::1', '2001:0:0:1::/64'],
    ['::1', '::/64'],
    ['::', '::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['[2001:db8:aaaa:bbbb::1]', '2001:db8:aaaa:bbbb::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b::/64'],
    // Not an address: used as it is (never reaches here from Fastify).
    ['Unknown', 'unknown'],
  ])('%s → %s', (ip, key) => {
    expect(clientIpKey(ip)).toBe(key)
  })

  it('puts every address of one /64 under one key and neighbours under others', () => {
    const keys = new Set(
      ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:db8:1:2:abcd:1:2:3'].map(clientIpKey),
    )
    expect(keys.size).toBe(1)
    expect(clientIpKey('2001:db8:1:3::1')).not.toBe(clientIpKey('2001:db8:1:2::1'))
  })
})

describe('resolveClientIp', () => {
  const proxies = ['10.0.0.0/8', '192.0.2.10', 'fd00::/8']

  it('ignores X-Forwarded-For when trustProxy is off, however it is spelled', () => {
    expect(resolveClientIp('198.51.100.9', '1.2.3.4', undefined)).toBe('198.51.100.9')
    expect(resolveClientIp('198.51.100.9', ['1.2.3.4', '5.6.7.8'], [])).toBe('198.51.100.9')
    expect(resolveClientIp('::ffff:10.1.1.1', '1.2.3.4', undefined)).toBe('::ffff:10.1.1.1')
  })

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(resolveClientIp('198.51.100.9', '1.2.3.4', proxies)).toBe('198.51.100.9')
  })

  it('walks from the right past trusted proxies to the caller', () => {
    // The client forged the leftmost entry; the proxies appended the real hops.
    expect(resolveClientIp('10.0.0.2', '6.6.6.6, 203.0.113.7, 10.0.0.5', proxies)).toBe(
      '203.0.113.7',
    )
    expect(resolveClientIp('192.0.2.10', '203.0.113.7', proxies)).toBe('203.0.113.7')
    expect(resolveClientIp('::ffff:10.0.0.2', ['6.6.6.6', '203.0.113.7'], proxies)).toBe(
      '203.0.113.7',
    )
  })

  it('handles IPv6 hops, brackets, ports and zone ids', () => {
    expect(resolveClientIp('fd00::1', '2001:db8::7, fd12::3', proxies)).toBe('2001:db8::7')
    expect(resolveClientIp('fd00::1%eth0', '[2001:db8::7]:4431', proxies)).toBe('2001:db8::7')
    expect(resolveClientIp('10.0.0.2', '203.0.113.7:5123', proxies)).toBe('203.0.113.7')
  })

  it('stops at the last good hop when an entry is not an address', () => {
    expect(resolveClientIp('10.0.0.2', '203.0.113.7, not-an-ip', proxies)).toBe('10.0.0.2')
    expect(resolveClientIp('10.0.0.2', 'garbage, 10.0.0.9', proxies)).toBe('10.0.0.9')
  })

  it('returns the leftmost hop when every hop is a trusted proxy', () => {
    expect(resolveClientIp('10.0.0.2', '10.9.9.9, 10.0.0.5', proxies)).toBe('10.9.9.9')
  })

  it('uses the peer when there is no header', () => {
    expect(resolveClientIp('10.0.0.2', undefined, proxies)).toBe('10.0.0.2')
    expect(resolveClientIp(undefined, undefined, proxies)).toBe('unknown')
  })
})

describe('trustedProxies', () => {
  it('matches exact addresses and CIDRs of both families', () => {
    const trusted = trustedProxies(['127.0.0.1', '10.0.0.0/8', '2001:db8::/32', '::ffff:0:0/96'])
    expect(trusted('127.0.0.1')).toBe(true)
    expect(trusted('::ffff:127.0.0.1')).toBe(true)
    expect(trusted('127.0.0.2')).toBe(true) // covered by ::ffff:0:0/96, i.e. all of IPv4
    expect(trustedProxies(['127.0.0.1'])('127.0.0.2')).toBe(false)
    expect(trusted('10.255.0.1')).toBe(true)
    expect(trusted('2001:db8:ffff::1')).toBe(true)
    expect(trusted('2001:db9::1')).toBe(false)
    expect(trusted('not-an-ip')).toBe(false)
  })

  it.each(['true', '*', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', '', 'proxy.local'])(
    'refuses %j as an entry',
    (entry) => {
      expect(() => trustedProxies([entry])).toThrow(TypeError)
    },
  )
})
