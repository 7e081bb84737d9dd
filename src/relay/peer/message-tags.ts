import { RELAY_TTL_SECONDS } from '../../wire/relay'
import type { SessionMethod } from '../protocol/methods'

/**
 * The relay `tag` of each session message (a request's answer has its tag + 1), so an operator can
 * tell message kinds apart without reading them, and the TTL each kind is published with.
 */
export const SESSION_MESSAGE_TAGS: Record<SessionMethod, number> = {
  scr_sessionPropose: 1100,
  scr_sessionRequest: 1108,
  scr_sessionDelete: 1112,
  scr_sessionPing: 1114,
  scr_sessionEvent: 1116,
}

/** Seconds: proposal and its answer, requests and answers 5 min; a ping 30 s; a delete 1 day. */
export const SESSION_MESSAGE_TTL_SECONDS: Record<SessionMethod, number> = {
  scr_sessionPropose: 300, // RELAY_TTL_SECONDS.proposal
  scr_sessionRequest: 300, // RELAY_TTL_SECONDS.request
  scr_sessionDelete: 86_400,
  scr_sessionPing: 30,
  scr_sessionEvent: 300,
}

export function tagOf(method: string): number {
  return SESSION_MESSAGE_TAGS[method as SessionMethod] ?? 1000
}

export function ttlOf(method: string): number {
  return SESSION_MESSAGE_TTL_SECONDS[method as SessionMethod] ?? RELAY_TTL_SECONDS.request
}
