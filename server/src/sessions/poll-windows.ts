import type { ProjectIndex } from '../config/project-index'
import type { ProjectConfig } from '../config/projects-schema'
import { policyFor } from '../context'

/** projectId → window in ms of its session policy. */
export type PollWindows = ReadonlyMap<string, number>

/**
 * The projects whose session quota a poll with this Origin may spend, each with its window: the
 * projects `checkOrigin` would let it reach (no Origin: every project; an Origin: those without
 * an `allowedOrigins` list or listing it). A store's poll gate (`Store.getSessionAndHit`) counts
 * only sessions of these projects. Built once from the projects file: one map per listed origin,
 * so a poll allocates nothing here and an unknown origin adds nothing.
 */
export function createPollWindows(
  projects: ProjectIndex,
): (origin: string | undefined) => PollWindows {
  const windowOf = (project: ProjectConfig) => policyFor(project, 'session').windowSeconds * 1000
  const everyProject = new Map<string, number>()
  const anyOrigin = new Map<string, number>()
  for (const project of projects.all()) {
    everyProject.set(project.projectId, windowOf(project))
    if (project.allowedOrigins === undefined) anyOrigin.set(project.projectId, windowOf(project))
  }
  const byOrigin = new Map<string, Map<string, number>>()
  for (const project of projects.all()) {
    for (const origin of project.allowedOrigins ?? []) {
      let windows = byOrigin.get(origin)
      if (!windows) {
        windows = new Map(anyOrigin)
        byOrigin.set(origin, windows)
      }
      windows.set(project.projectId, windowOf(project))
    }
  }
  return (origin) =>
    typeof origin === 'string' ? (byOrigin.get(origin) ?? anyOrigin) : everyProject
}
