import { describe, expect, it } from 'vitest'
import { allowsOrigin, createProjectIndex } from '../src/config/project-index'
import type { ProjectConfig } from '../src/config/projects-schema'
import { createPollWindows } from '../src/sessions/poll-windows'

const project = (projectId: string, extra: Partial<ProjectConfig> = {}): ProjectConfig => ({
  projectId,
  name: projectId,
  appKeys: [`${projectId}-key`],
  networks: [{ chainId: 'eip155:1' }],
  wallets: [],
  ...extra,
})

const projects = [
  project('open', { rateLimits: { session: { limit: 10, windowSeconds: 30 } } }),
  project('b', { allowedOrigins: ['https://b.example'] }),
  project('bc', { allowedOrigins: ['https://b.example', 'https://c.example'] }),
]
const index = createProjectIndex({ projects })
const windowsFor = createPollWindows(index)

describe('poll windows: the projects a poll may count against', () => {
  it("maps each reachable project to its session window, the project's override included", () => {
    expect(Object.fromEntries(windowsFor(undefined))).toEqual({
      open: 30_000,
      b: 60_000,
      bc: 60_000,
    })
    expect([...windowsFor('https://c.example').keys()].sort()).toEqual(['bc', 'open'])
    expect([...windowsFor('https://unknown.example').keys()]).toEqual(['open'])
  })

  it('admits exactly the projects checkOrigin would let the request reach', () => {
    const origins = [undefined, '', 'https://b.example', 'https://c.example', 'https://x.example']
    for (const origin of origins) {
      const windows = windowsFor(origin)
      for (const p of projects) {
        const reachable = origin === undefined || allowsOrigin(p, origin)
        expect(windows.has(p.projectId), `${p.projectId} from ${origin}`).toBe(reachable)
      }
    }
  })

  it('hands out the same map for the same origin (built once)', () => {
    expect(windowsFor('https://b.example')).toBe(windowsFor('https://b.example'))
    expect(windowsFor('https://y.example')).toBe(windowsFor('https://z.example'))
    expect(windowsFor(undefined)).toBe(windowsFor(undefined))
  })
})
