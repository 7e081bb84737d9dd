export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory'
export { createRedisStore, type RedisStore, type RedisStoreOptions } from './redis'
export { SESSION_GRACE_MS, type SessionPatch } from './session-patch'
export * from './types'
