import {
  RELAY_CLOSE_CODES,
  RELAY_ERROR_CODES,
  RELAY_LIMITS,
  RELAY_METHODS,
} from 'scope-connect/wire'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  connectRelay,
  envelope,
  RelayCallError,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const { subscribe, publish, fetchMessages, ping, unsubscribe } = RELAY_METHODS
const LIMITS = {
  maxSubscriptionsPerConnection: 3,
  mailboxPerTopic: 3,
  publishesPerMinute: 20,
  requestsPerMinute: 200,
}

let server: TestServer
const clients: RelayTestClient[] = []
const connect = async () => {
  const client = await connectRelay(server.baseUrl)
  clients.push(client)
  return client
}

beforeAll(async () => {
  server = await startTestServer({ relay: { limits: LIMITS } })
})
afterEach(() => {
  for (const client of clients.splice(0)) client.close()
})
afterAll(() => server?.close())

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    (result) => ({ result }),
    (error: unknown) => {
      if (error instanceof RelayCallError) return { code: error.error.code }
      throw error
    },
  )

const TOPIC = topicFor('bad-input')
const GOOD_PUBLISH = { topic: TOPIC, message: envelope('ok'), ttl: 60, tag: 1 }

describe('relay: bad input gets the documented error, and the socket stays usable', () => {
  it.each([
    ['not JSON', '{"jsonrpc":"2.0",', RELAY_ERROR_CODES.PARSE_ERROR],
    ['an empty frame', '', RELAY_ERROR_CODES.PARSE_ERROR],
    [
      'a JSON array (batch)',
      '[{"jsonrpc":"2.0","id":1,"method":"scr_ping"}]',
      RELAY_ERROR_CODES.INVALID_REQUEST,
    ],
    ['a JSON string', '"scr_ping"', RELAY_ERROR_CODES.INVALID_REQUEST],
    ['no jsonrpc member', '{"id":1,"method":"scr_ping"}', RELAY_ERROR_CODES.INVALID_REQUEST],
    [
      'a string id',
      '{"jsonrpc":"2.0","id":"1","method":"scr_ping"}',
      RELAY_ERROR_CODES.INVALID_REQUEST,
    ],
    [
      'a fractional id',
      '{"jsonrpc":"2.0","id":1.5,"method":"scr_ping"}',
      RELAY_ERROR_CODES.INVALID_REQUEST,
    ],
    [
      'a notification (no id)',
      '{"jsonrpc":"2.0","method":"scr_ping"}',
      RELAY_ERROR_CODES.INVALID_REQUEST,
    ],
    [
      'a method that is not a string',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      RELAY_ERROR_CODES.INVALID_REQUEST,
    ],
    [
      'a __proto__ payload',
      '{"jsonrpc":"2.0","id":1,"method":"scr_subscribe","params":{"__proto__":{"topic":"x"}}}',
      RELAY_ERROR_CODES.INVALID_PARAMS,
    ],
  ])('%s', async (_name, frame, code) => {
    const client = await connect()
    const id = /"id":(\d+)(?=[,}])/.exec(frame)?.[1]
    const answer = client.answer(id && !frame.startsWith('[') ? Number(id) : null)
    client.sendRaw(frame)
    expect((await answer).error?.code).toBe(code)
    expect(await client.request(ping)).toBe(true)
  })

  it('a binary frame is a parse error, not a close', async () => {
    const client = await connect()
    const answer = client.answer(null)
    client.sendRaw(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"scr_ping"}'))
    expect((await answer).error?.code).toBe(RELAY_ERROR_CODES.PARSE_ERROR)
    expect(await client.request(ping)).toBe(true)
  })

  it('a text frame that is not UTF-8 is closed 1007 by the WebSocket layer (RFC 6455)', async () => {
    const client = await connect()
    client.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false })
    expect((await client.closed).code).toBe(1007)
  })

  it('unknown methods, including the server-to-client scr_subscription', async () => {
    const client = await connect()
    for (const method of ['scr_nope', 'irn_subscribe', RELAY_METHODS.subscription, '']) {
      expect(await codeOf(client.request(method, {}))).toEqual({
        code: RELAY_ERROR_CODES.METHOD_NOT_FOUND,
      })
    }
  })

  it.each([
    ['no params', undefined],
    ['params not an object', ['a']],
    ['no topic', {}],
    ['upper-case hex', { topic: TOPIC.toUpperCase() }],
    ['63 digits', { topic: TOPIC.slice(1) }],
    ['not hex', { topic: 'g'.repeat(64) }],
    ['a number', { topic: 42 }],
  ])('bad topic (%s) on subscribe and fetch', async (_name, params) => {
    const client = await connect()
    for (const method of [subscribe, fetchMessages]) {
      expect(await codeOf(client.request(method, params))).toEqual({
        code: RELAY_ERROR_CODES.INVALID_PARAMS,
      })
    }
  })

  it.each([
    ['ttl below 10 s', { ttl: 9 }],
    ['ttl above 7 days', { ttl: RELAY_LIMITS.maxTtlSeconds + 1 }],
    ['ttl fractional', { ttl: 60.5 }],
    ['ttl a string', { ttl: '60' }],
    ['tag missing', { tag: undefined }],
    ['tag fractional', { tag: 1.5 }],
    ['message not base64', { message: 'not base64!' }],
    ['message unpadded', { message: 'YWJj ZA' }],
    ['message empty', { message: '' }],
    ['message a number', { message: 1 }],
    ['topic bad', { topic: 'xyz' }],
    ['unsubscribe without an id', null],
  ])('publish with %s', async (_name, change) => {
    const client = await connect()
    const request =
      change === null
        ? client.request(unsubscribe, { topic: TOPIC })
        : client.request(publish, { ...GOOD_PUBLISH, ...change })
    expect(await codeOf(request)).toEqual({ code: RELAY_ERROR_CODES.INVALID_PARAMS })
    expect(await client.request(ping)).toBe(true)
  })

  it('a message over 96 KiB is MESSAGE_TOO_LARGE; one of exactly 96 KiB is accepted', async () => {
    const client = await connect()
    const tooBig = 'A'.repeat(RELAY_LIMITS.maxMessageBytes + 4)
    expect(
      await codeOf(
        client.request(publish, { ...GOOD_PUBLISH, topic: topicFor('big'), message: tooBig }),
      ),
    ).toEqual({ code: RELAY_ERROR_CODES.MESSAGE_TOO_LARGE })
    const exact = 'A'.repeat(RELAY_LIMITS.maxMessageBytes)
    expect(
      await client.request(publish, { ...GOOD_PUBLISH, topic: topicFor('big'), message: exact }),
    ).toBe(true)
  })

  it('a frame over 128 KiB closes the socket with 1009', async () => {
    const client = await connect()
    client.sendRaw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: publish,
        params: { ...GOOD_PUBLISH, message: 'A'.repeat(RELAY_LIMITS.maxFrameBytes) },
      }),
    )
    expect((await client.closed).code).toBe(RELAY_CLOSE_CODES.MESSAGE_TOO_BIG)
    // The server is fine: a new connection works.
    expect(await (await connect()).request(ping)).toBe(true)
  })

  it('the subscription limit: one more is TOO_MANY_SUBSCRIPTIONS; after an unsubscribe it fits', async () => {
    const client = await connect()
    const ids: string[] = []
    for (let i = 0; i < LIMITS.maxSubscriptionsPerConnection; i++) {
      ids.push(await client.request<string>(subscribe, { topic: topicFor(`subs-${i}`) }))
    }
    expect(await codeOf(client.request(subscribe, { topic: topicFor('subs-x') }))).toEqual({
      code: RELAY_ERROR_CODES.TOO_MANY_SUBSCRIPTIONS,
    })
    // A topic it already holds is not a new subscription.
    expect(await client.request(subscribe, { topic: topicFor('subs-0') })).toBe(ids[0])
    await client.request(unsubscribe, { topic: topicFor('subs-0'), id: ids[0] })
    expect(await client.request(subscribe, { topic: topicFor('subs-x') })).toEqual(
      expect.any(String),
    )
  })

  it('a full mailbox is MAILBOX_FULL; other topics are not affected; a republish is not refused', async () => {
    // Two publishers fill it: one alone may hold only its share (fair-share.test.ts).
    const client = await connect()
    const peer = await connect()
    const topic = topicFor('full')
    for (let i = 0; i < LIMITS.mailboxPerTopic; i++) {
      const publisher = i % 2 === 0 ? client : peer
      expect(
        await publisher.request(publish, { ...GOOD_PUBLISH, topic, message: envelope(i) }),
      ).toBe(true)
    }
    expect(
      await codeOf(client.request(publish, { ...GOOD_PUBLISH, topic, message: envelope('x') })),
    ).toEqual({ code: RELAY_ERROR_CODES.MAILBOX_FULL })
    // A retry of a message the mailbox holds is a duplicate, not a new entry.
    expect(await client.request(publish, { ...GOOD_PUBLISH, topic, message: envelope(0) })).toBe(
      true,
    )
    expect(await client.request(publish, { ...GOOD_PUBLISH, topic: topicFor('not-full') })).toBe(
      true,
    )
  })

  it('an id reused while its request is in flight is refused', async () => {
    const client = await connect()
    const frame = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: subscribe,
      params: { topic: TOPIC },
    })
    const answers = [client.answer(7), client.answer(7)]
    client.sendRaw(frame)
    client.sendRaw(frame)
    // The refusal is immediate, so it may come first: one answer of each kind.
    const kinds = (await Promise.all(answers)).map((a) => a.error?.code ?? typeof a.result)
    expect(kinds.sort()).toEqual([RELAY_ERROR_CODES.INVALID_REQUEST, 'string'].sort())
  })

  it(`a publish flood closes the socket with 1013 at publish ${LIMITS.publishesPerMinute + 1}`, async () => {
    const client = await connect()
    const answers = Array.from({ length: LIMITS.publishesPerMinute }, (_, i) =>
      client.request(publish, { ...GOOD_PUBLISH, topic: topicFor(`flood-${i}`) }),
    )
    expect(await Promise.all(answers)).toEqual(answers.map(() => true))
    client.sendRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 9999, method: publish, params: GOOD_PUBLISH }),
    )
    expect((await client.closed).code).toBe(RELAY_CLOSE_CODES.TRY_AGAIN_LATER)
  })

  it('a flood of garbage frames is answered, then closed with 1013 past the request limit', async () => {
    const client = await connect()
    const errors: Promise<unknown>[] = []
    for (let i = 0; i < LIMITS.requestsPerMinute; i++) {
      errors.push(client.answer(null))
      client.sendRaw('garbage')
    }
    expect(
      (await Promise.all(errors)).every(
        (answer) =>
          (answer as { error?: { code: number } }).error?.code === RELAY_ERROR_CODES.PARSE_ERROR,
      ),
    ).toBe(true)
    client.sendRaw('garbage')
    expect((await client.closed).code).toBe(RELAY_CLOSE_CODES.TRY_AGAIN_LATER)
  })

  it('stray answers (to no push) are never answered, and count against the request limit', async () => {
    const client = await connect()
    for (let i = 0; i < LIMITS.requestsPerMinute - 1; i++) {
      client.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 10_000 + i, result: true }))
    }
    expect(await client.request(ping)).toBe(true) // request number requestsPerMinute
    client.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 1, result: true }))
    expect((await client.closed).code).toBe(RELAY_CLOSE_CODES.TRY_AGAIN_LATER)
  })
})
