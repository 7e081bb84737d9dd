export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory'
export { createRedisStore, type RedisStore, type RedisStoreOptions } from './redis'
export { parseClusterNodes, type RedisTarget } from './redis-connection'
export {
  createLocalWatchers,
  createMemorySessionEvents,
  type LocalWatchers,
  type SessionEvents,
} from './session-events'
export {
  createRedisSessionEvents,
  type RedisSessionEvents,
  type RedisSessionEventsOptions,
  sessionEventKey,
} from './session-events-redis'
export { SESSION_GRACE_MS, type SessionPatch } from './session-patch'
export * from './types'
