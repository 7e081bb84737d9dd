import { useCallback, useMemo, useRef, useState } from 'react'

/** Where a wallet action started by a hook (`useConnect`, `useSignMessage`, …) stands. */
export type MutationStatus = 'idle' | 'pending' | 'success' | 'error'

/**
 * The state of the last action a hook started, in the shape of wagmi's and TanStack Query's
 * mutations: `data` of the last success, `error` of the last failure (an `AppError`; test it with
 * `isAppError`), the `variables` it was called with, and one flag per status.
 */
export interface MutationState<TData, TVariables> {
  status: MutationStatus
  data: TData | undefined
  error: Error | null
  variables: TVariables | undefined
  isIdle: boolean
  isPending: boolean
  isSuccess: boolean
  isError: boolean
}

/** A mutation's state with the functions that run it (`mutate` never throws) and `reset`. */
export interface Mutation<TData, TVariables> extends MutationState<TData, TVariables> {
  mutate(variables: TVariables): void
  mutateAsync(variables: TVariables): Promise<TData>
  reset(): void
}

interface Step<TData, TVariables> {
  status: MutationStatus
  data: TData | undefined
  error: Error | null
  variables: TVariables | undefined
}

const IDLE: Step<never, never> = {
  status: 'idle',
  data: undefined,
  error: null,
  variables: undefined,
}

/**
 * Runs `run(variables)` on demand and keeps the state of the last call: a call that a later one
 * overtook no longer writes it, and `reset()` forgets it (a call still running then stays silent).
 */
export function useMutation<TData, TVariables>(
  run: (variables: TVariables) => Promise<TData>,
): Mutation<TData, TVariables> {
  const [step, setStep] = useState<Step<TData, TVariables>>(IDLE)
  const latest = useRef(0)
  const runRef = useRef(run)
  runRef.current = run

  const mutateAsync = useCallback(async (variables: TVariables): Promise<TData> => {
    const call = ++latest.current
    setStep({ status: 'pending', data: undefined, error: null, variables })
    try {
      const data = await runRef.current(variables)
      if (call === latest.current) setStep({ status: 'success', data, error: null, variables })
      return data
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error))
      if (call === latest.current) {
        setStep({ status: 'error', data: undefined, error: failure, variables })
      }
      throw error
    }
  }, [])
  const mutate = useCallback(
    (variables: TVariables) => {
      mutateAsync(variables).catch(() => {})
    },
    [mutateAsync],
  )
  const reset = useCallback(() => {
    latest.current++
    setStep(IDLE)
  }, [])

  return useMemo(
    () => ({
      ...step,
      isIdle: step.status === 'idle',
      isPending: step.status === 'pending',
      isSuccess: step.status === 'success',
      isError: step.status === 'error',
      mutate,
      mutateAsync,
      reset,
    }),
    [step, mutate, mutateAsync, reset],
  )
}
