import type { ActorLogic, ActorSystem, EventObject, Snapshot } from 'xstate'

/**
 * A typed stand-in for a child machine a chart invokes but its facade provides (`provide`): it
 * has the child's snapshot, event and input types, so the chart reads the child's snapshot and
 * output without a cast and without bundling the child. Invoking it unprovided throws, naming it.
 */
export function notProvidedLogic<
  TSnapshot extends Snapshot<unknown>,
  TEvent extends EventObject,
  TInput,
  TEmitted extends EventObject,
  // biome-ignore lint/suspicious/noExplicitAny: xstate's `AnyActorSystem`, which it does not export
>(name: string): ActorLogic<TSnapshot, TEvent, TInput, ActorSystem<any>, TEmitted> {
  return {
    transition: (snapshot) => snapshot,
    getInitialSnapshot: () => {
      throw new Error(`${name}: provide this actor`)
    },
    getPersistedSnapshot: (snapshot) => snapshot,
  }
}

/**
 * The implementation of an actor a chart names but its facade or factory provides (`provide`):
 * the one stand-in every chart uses. Invoking it unprovided throws, naming the actor and `by`,
 * what provides it.
 */
export const notProvided =
  (name: string, by = 'machine.provide') =>
  (): never => {
    throw new Error(`The actor "${name}" was not provided (use ${by}).`)
  }
