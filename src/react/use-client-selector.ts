import { useSelector } from '@xstate/react'
import type { ClientSnapshot } from '../../machines/client/client.view'
import type { Client } from '../client/client'
import { useClientActor } from './use-client-actor'

/**
 * A value selected from the root actor's snapshot (`@xstate/react`'s `useSelector` on the
 * client's current root actor). Re-renders only when `compare(previous, next)` is false (default
 * `===`), whatever else changes; when `resume()` replaces the root it re-subscribes to the new
 * one and selects from it. Select from `snapshot.context` or `toClientView(snapshot)`; return a
 * stable value or pass a `compare` (`shallowEqual` from `@xstate/react` for objects).
 */
export function useClientSelector<T>(
  client: Client,
  selector: (snapshot: ClientSnapshot) => T,
  compare?: (previous: T, next: T) => boolean,
): T {
  return useSelector(useClientActor(client), selector, compare)
}
