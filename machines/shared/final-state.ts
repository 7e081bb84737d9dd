/**
 * The machine's `output` when each of its final states gives one of type `TOutput` (its `output`):
 * how the flow ended is the state it ended in, so no context field keeps it. The final state's
 * output is passed on (XState types a done-state event's output `unknown`).
 */
export const finalStateOutput =
  <TOutput>() =>
  ({ event }: { event: { output?: unknown } }): TOutput =>
    event.output as TOutput
