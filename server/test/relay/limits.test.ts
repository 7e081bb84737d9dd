import { RELAY_LIMITS } from 'scope-connect/wire'
import { describe, expect, it } from 'vitest'
import { DEFAULT_RELAY_LIMITS, resolveRelayLimits } from '../../src/relay/limits'

describe('relay limits', () => {
  it('defaults to the protocol limits of SPEC 5', () => {
    expect(resolveRelayLimits()).toMatchObject({
      maxFrameBytes: RELAY_LIMITS.maxFrameBytes,
      maxMessageBytes: RELAY_LIMITS.maxMessageBytes,
      maxSubscriptionsPerConnection: RELAY_LIMITS.maxSubscriptionsPerConnection,
      publishesPerMinute: RELAY_LIMITS.publishesPerMinute,
      mailboxPerTopic: RELAY_LIMITS.mailboxPerTopic,
      heartbeatMs: 30_000,
    })
    expect(resolveRelayLimits()).toEqual(DEFAULT_RELAY_LIMITS)
  })

  it('may lower the protocol sizes and counts, never raise them; rates may go up', () => {
    expect(resolveRelayLimits({ mailboxPerTopic: 5 }).mailboxPerTopic).toBe(5)
    expect(resolveRelayLimits({ publishesPerMinute: 10_000 }).publishesPerMinute).toBe(10_000)
    for (const name of [
      'maxFrameBytes',
      'maxMessageBytes',
      'maxSubscriptionsPerConnection',
      'mailboxPerTopic',
    ] as const) {
      expect(() => resolveRelayLimits({ [name]: RELAY_LIMITS[name] + 1 })).toThrow(name)
    }
    expect(() => resolveRelayLimits({ maxSocketsPerIp: 0 })).toThrow('integer >= 1')
    expect(() => resolveRelayLimits({ heartbeatMs: 1.5 })).toThrow('integer >= 1')
    expect(() => resolveRelayLimits({ maxMessageBytes: 200, maxFrameBytes: 100 })).toThrow(
      'below maxFrameBytes',
    )
  })
})
