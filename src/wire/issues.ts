import type * as z from 'zod/mini'
import type { FieldIssue } from '../errors/app-error'
import { safeText } from '../errors/arguments'

type Issue = z.core.$ZodIssue

/**
 * A readable reason for one zod issue (zod/mini ships no messages, by design, to stay small).
 * `missing` says whether the value at the issue's path was absent (zod omits inputs from issues).
 * Never throws: anything that is not an issue is `'is invalid'`.
 */
export function describeIssue(issue: Issue, missing = false): string {
  if (typeof issue !== 'object' || issue === null) return 'is invalid'
  try {
    return describeKnownIssue(issue, missing === true)
  } catch {
    return 'is invalid' // an object shaped like no issue (a Symbol bound, values that are no array)
  }
}

function describeKnownIssue(issue: Issue, missing: boolean): string {
  switch (issue.code) {
    case 'invalid_type':
      return missing ? 'is required' : `must be ${issue.expected}`
    case 'invalid_format':
      return 'pattern' in issue && issue.pattern
        ? `has an invalid format (expected ${issue.pattern})`
        : 'has an invalid format'
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must be at most ${issue.maximum} long`
        : `must be at most ${issue.maximum}`
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must be at least ${issue.minimum} long`
        : `must be at least ${issue.minimum}`
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'unrecognized_keys':
      return `has unknown keys: ${issue.keys.join(', ')}`
    case 'invalid_union':
      return 'matches none of the allowed shapes'
    default:
      return typeof issue.message === 'string' && issue.message && issue.message !== 'Invalid input'
        ? issue.message
        : 'is invalid'
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/**
 * Field-level reasons for a failed parse of `input`; the field is the dotted path (`(root)` for the
 * whole value). Never throws: `issues` that is not an array gives none, an entry that is not an
 * issue gives `(root)` `is invalid`.
 */
export function issuesToFieldIssues(issues: readonly Issue[], input?: unknown): FieldIssue[] {
  if (!Array.isArray(issues)) return []
  return issues.map((issue: unknown) => {
    const path: unknown = typeof issue === 'object' && issue !== null ? (issue as Issue).path : []
    const keys = Array.isArray(path) ? (path as PropertyKey[]) : []
    return {
      field: keys.length === 0 ? '(root)' : keys.map(safeText).join('.'),
      reason: describeIssue(issue as Issue, valueAt(input, keys) === undefined),
    }
  })
}
