import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { RELAY_METHODS, type RelayFetchResult } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import {
  connectRelay,
  envelope,
  issueRelayToken,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const SAMPLE_APP_KEY = 'sample-app-key'
const RELAY_KEY = Buffer.alloc(32, 7).toString('base64url')
// Within the dApp's fair share of the mailbox (40 live messages per party of a topic of 100;
// the reconnect draws a new token, so a second subject): every message stays fetchable.
const MESSAGES = 60
const KILL_AFTER = 30
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

interface Instance {
  url: string
  child: ChildProcess
  exited: Promise<unknown>
}

/** The real CLI in its own process, so it can be killed outright (SIGKILL: no graceful close). */
function startInstance(redisUrl: string): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [
      'server/bin/scope-connect-server.js',
      '--port',
      '0',
      '--redis-url',
      redisUrl,
      '--relay-key',
      RELAY_KEY,
      '--public-url',
      'http://relay.test',
      '--log-level',
      'warn',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1]
      if (url) resolve({ url, child, exited })
    })
    void exited.then(() => reject(new Error(`instance exited: ${stderr}`)))
  })
}

/**
 * A client that survives the relay going away the way SPEC 5 tells clients to: reconnect with
 * backoff (here to whichever instance is alive, as a load balancer would), then fetch every
 * topic, then subscribe again. The app above it sees each message once: it drops duplicates by
 * messageId. `relayDeliveries` counts what the relay delivered, duplicates included.
 */
class ResilientClient {
  client: RelayTestClient | undefined
  readonly delivered = new Map<string, string>()
  relayDeliveries = 0
  reconnects = 0
  private stopped = false

  constructor(
    private readonly target: () => string,
    private readonly topic: string | undefined,
  ) {}

  async start(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.open()
        return
      } catch (error) {
        if (this.stopped || attempt > 50) throw error
        await sleep(Math.min(25 * 2 ** attempt, 500))
      }
    }
  }

  private async open(): Promise<void> {
    const url = this.target()
    const { token } = await issueRelayToken(url, SAMPLE_APP_KEY)
    const client = await connectRelay(url, {
      token,
      onPush: (push) => this.deliver(push.data.messageId, push.data.message),
    })
    this.client = client
    void client.closed.then(() => {
      if (this.stopped) return
      this.reconnects++
      this.client = undefined
      void this.start()
    })
    if (!this.topic) return
    let page: RelayFetchResult
    do {
      page = await client.request<RelayFetchResult>(RELAY_METHODS.fetchMessages, {
        topic: this.topic,
      })
      for (const message of page.messages) this.deliver(message.messageId, message.message)
    } while (page.hasMore)
    await client.request(RELAY_METHODS.subscribe, { topic: this.topic })
  }

  private deliver(messageId: string, message: string) {
    this.relayDeliveries++
    if (!this.delivered.has(messageId)) this.delivered.set(messageId, message)
  }

  /** Publishes until the relay answers `true`, reconnecting as needed. */
  async publish(topic: string, message: string): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (!this.client) throw new Error('not connected')
        await this.client.request(RELAY_METHODS.publish, { topic, message, ttl: 300, tag: 1 })
        return attempt
      } catch {
        if (attempt > 200) throw new Error(`publish of ${message} never confirmed`)
        await sleep(20)
      }
    }
  }

  stop() {
    this.stopped = true
    this.client?.close()
  }
}

describe('relay failover: an instance killed mid-session', () => {
  let redis: RunningRedis
  const instances: Instance[] = []

  beforeAll(async () => {
    redis = await startRedis()
    instances.push(await startInstance(redis.url), await startInstance(redis.url))
  })
  afterAll(async () => {
    for (const instance of instances) {
      instance.child.kill('SIGKILL')
      await instance.exited
    }
    await redis?.stop()
  })

  it('clients reconnect, fetch and resubscribe: every message arrives, the app sees each once', async () => {
    const [a, b] = instances as [Instance, Instance]
    let aAlive = true
    const target = () => (aAlive ? a.url : b.url)
    const topic = topicFor('failover')
    const wallet = new ResilientClient(target, topic)
    const dapp = new ResilientClient(target, undefined)
    await wallet.start()
    await dapp.start()

    const sent: string[] = []
    let retried = 0
    for (let i = 0; i < MESSAGES; i++) {
      if (i === KILL_AFTER) {
        // Mid-session, with pushes still in flight: the instance both clients are on dies.
        a.child.kill('SIGKILL')
        await a.exited
        aAlive = false
      }
      const message = envelope(`failover-${i}`)
      sent.push(message)
      retried += await dapp.publish(topic, message)
    }

    for (let waited = 0; wallet.delivered.size < MESSAGES && waited < 20_000; waited += 50) {
      await sleep(50)
    }
    expect(wallet.reconnects).toBeGreaterThanOrEqual(1)
    expect(dapp.reconnects).toBeGreaterThanOrEqual(1)
    expect(retried).toBeGreaterThanOrEqual(1) // the publish in flight at the kill was retried
    // No message lost: exactly the sent set, by id and content.
    expect([...wallet.delivered.keys()].sort()).toEqual(sent.map(sha256).sort())
    expect([...wallet.delivered.values()].sort()).toEqual([...sent].sort())
    // The relay may deliver a message twice around the failover (fetch and push race, a
    // retried publish); the app above drops those by messageId.
    expect(wallet.relayDeliveries).toBeGreaterThanOrEqual(MESSAGES)
    wallet.stop()
    dapp.stop()
  })
})
