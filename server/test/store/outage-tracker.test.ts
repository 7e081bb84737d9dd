import { afterEach, describe, expect, it, vi } from 'vitest'
import { createOutageTracker } from '../../src/store/outage-tracker'

afterEach(() => {
  vi.useRealTimers()
})

/** The one outage tracker every Redis client reports through (issue 28, item 5). */
describe('createOutageTracker', () => {
  const tracked = (settleMs = 1_000) => {
    const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = []
    let closing = false
    const tracker = createOutageTracker({
      message: 'relay mailbox: redis unavailable; reconnecting',
      back: 'relay mailbox: redis is back',
      settleMs,
      log: {
        warn: (fields, msg) => lines.push({ level: 'warn', msg, fields: { ...fields } }),
        info: (fields, msg) => lines.push({ level: 'info', msg, fields: { ...fields } }),
      },
      closing: () => closing,
    })
    return { tracker, lines, close: () => (closing = true) }
  }

  it('one outage that flaps (down, up, down within the settle delay) counts once, one start line and one end line', () => {
    vi.useFakeTimers()
    const { tracker, lines } = tracked()
    tracker.down(new Error('connect ECONNREFUSED 127.0.0.1:7000'))
    for (let i = 0; i < 5; i++) {
      tracker.up()
      vi.advanceTimersByTime(900)
      tracker.down('connection closed')
    }
    expect(tracker.stats()).toEqual({ down: true, outages: 1 })
    tracker.up()
    vi.advanceTimersByTime(999)
    expect(tracker.stats().down).toBe(true)
    tracker.up() // a second sign of health does not restart the delay
    vi.advanceTimersByTime(1)
    expect(tracker.stats()).toEqual({ down: false, outages: 1 })
    expect(lines.map(({ level, msg }) => `${level} ${msg}`)).toEqual([
      'warn relay mailbox: redis unavailable; reconnecting',
      'info relay mailbox: redis is back',
    ])
    // The start line carries the first reason, as a message (no stack); the end how long it was.
    expect(lines[0]!.fields).toEqual({ err: 'connect ECONNREFUSED 127.0.0.1:7000', outages: 1 })
    expect(lines[1]!.fields).toMatchObject({ outages: 1, downMs: expect.any(Number) })
  })

  it('two outages apart count twice, each with its two lines', () => {
    vi.useFakeTimers()
    const { tracker, lines } = tracked(100)
    for (let outage = 0; outage < 2; outage++) {
      tracker.down('connection closed')
      tracker.down('connection closed')
      tracker.up()
      vi.advanceTimersByTime(100)
    }
    expect(tracker.stats()).toEqual({ down: false, outages: 2 })
    expect(lines.map(({ level }) => level)).toEqual(['warn', 'info', 'warn', 'info'])
    expect(lines[2]!.fields).toMatchObject({ outages: 2 })
  })

  it('a sign of health with no outage, and the owner closing, log nothing', () => {
    vi.useFakeTimers()
    const { tracker, lines, close } = tracked(100)
    tracker.up()
    vi.advanceTimersByTime(1_000)
    close()
    tracker.down('connection closed')
    expect(tracker.stats()).toEqual({ down: false, outages: 0 })
    expect(lines).toEqual([])
  })
})
