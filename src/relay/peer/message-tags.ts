import { RELAY_TTL_SECONDS } from '../../wire/relay'
import { SESSION_METHODS, type SessionMethod } from '../protocol/methods'

/**
 * The relay `tag` of each session message (a request's answer has its tag + 1), so an operator can
 * tell message kinds apart without reading them, and the TTL each kind is published with.
 */
export const SESSION_MESSAGE_TAGS: Record<SessionMethod, number> = {
  [SESSION_METHODS.propose]: 1100,
  [SESSION_METHODS.request]: 1108,
  [SESSION_METHODS.delete]: 1112,
  [SESSION_METHODS.ping]: 1114,
}

/** Seconds: proposal and its answer, requests and answers 5 min; a ping 30 s; a delete 1 day. */
export const SESSION_MESSAGE_TTL_SECONDS: Record<SessionMethod, number> = {
  [SESSION_METHODS.propose]: RELAY_TTL_SECONDS.proposal,
  [SESSION_METHODS.request]: RELAY_TTL_SECONDS.request,
  [SESSION_METHODS.delete]: 86_400,
  [SESSION_METHODS.ping]: 30,
}

export function tagOf(method: string): number {
  return SESSION_MESSAGE_TAGS[method as SessionMethod] ?? 1000
}

export function ttlOf(method: string): number {
  return SESSION_MESSAGE_TTL_SECONDS[method as SessionMethod] ?? RELAY_TTL_SECONDS.request
}
