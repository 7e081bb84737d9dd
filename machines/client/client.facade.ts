import type { Actor } from 'xstate'
import type { clientMachine } from './client.machine'

/** The root actor of a `Client`: the one actor system every flow runs in (`client.actor`). */
export type ClientActor = Actor<typeof clientMachine>
