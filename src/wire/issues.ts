import type * as z from 'zod/mini'
import type { FieldIssue } from '../errors/app-error'

type Issue = z.core.$ZodIssue

/** A readable reason for one zod issue (zod/mini ships no messages, by design, to stay small). */
export function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected}`
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
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'is invalid'
  }
}

/** Field-level reasons for a failed parse; the field is the dotted path (`(root)` for the whole value). */
export function issuesToFieldIssues(issues: readonly Issue[]): FieldIssue[] {
  return issues.map((issue) => ({
    field: issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.'),
    reason: describeIssue(issue),
  }))
}
