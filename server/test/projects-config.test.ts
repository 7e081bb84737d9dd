import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { SAMPLE_PROJECTS_FILE } from '../src/cli-args'
import { loadProjectsFile, ProjectsConfigError, parseProjectsConfig } from '../src/config/projects'
import { TEST_PROJECT } from './support/server'

function problemsOf(value: unknown): string[] {
  try {
    parseProjectsConfig(value)
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectsConfigError)
    return (error as ProjectsConfigError).problems
  }
  throw new Error('expected the projects file to be refused')
}

const withProject = (patch: object) => ({ projects: [{ ...TEST_PROJECT, ...patch }] })

describe('projects file validation', () => {
  it('accepts the sample file and the test project', async () => {
    const sample = await loadProjectsFile(SAMPLE_PROJECTS_FILE)
    expect(sample.projects[0]?.appKeys).toContain('sample-app-key')
    expect(parseProjectsConfig(withProject({})).projects).toHaveLength(1)
  })

  it('names the bad field path: unknown chain, unknown wallet', () => {
    expect(
      problemsOf(
        withProject({ networks: [{ chainId: 'eip155:1' }, { chainId: 'eip155:999999' }] }),
      ),
    ).toEqual([
      'projects[0].networks[1].name: required for eip155:999999, which is not a built-in chain',
      'projects[0].networks[1].nativeCurrency: required for eip155:999999, which is not a built-in chain',
    ])
    expect(problemsOf(withProject({ wallets: ['metamask', 'nosuchwallet'] }))).toEqual([
      'projects[0].wallets[1]: unknown wallet nosuchwallet',
    ])
  })

  it('names shape errors by path', () => {
    const problems = problemsOf(
      withProject({
        appKeys: [],
        networks: [{ chainId: 'eip155:1', rpcUrl: 'ftp://x', wsUrl: 'https://not.a.socket' }],
      }),
    )
    expect(problems.some((p) => p.startsWith('projects[0].appKeys:'))).toBe(true)
    expect(problems.some((p) => p.startsWith('projects[0].networks[0].rpcUrl:'))).toBe(true)
    expect(problems.some((p) => p.startsWith('projects[0].networks[0].wsUrl:'))).toBe(true)
    expect(problemsOf({})).toEqual(['projects: is required'])
    expect(
      problemsOf(withProject({ rateLimits: { callbackIp: { limit: 1, windowSeconds: 1 } } }))[0],
    ).toContain('projects[0].rateLimits')
  })

  it('refuses duplicate app keys and project ids, and bad origins', () => {
    const problems = problemsOf({
      projects: [TEST_PROJECT, { ...TEST_PROJECT, allowedOrigins: ['https://ok.example/path'] }],
    })
    expect(problems).toContain('projects[1].projectId: duplicate projectId')
    expect(problems).toContain('projects[1].appKeys[0]: app key used twice')
    expect(problems).toContain(
      'projects[1].allowedOrigins[0]: not an origin (scheme://host[:port])',
    )
  })

  it('a file that is not JSON names the file; buildApp refuses an invalid config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'projects-'))
    const file = join(dir, 'projects.json')
    await writeFile(file, '{ "projects": [')
    await expect(loadProjectsFile(file)).rejects.toThrow(file)
    await expect(
      buildApp({ projects: withProject({ wallets: ['nosuchwallet'] }) as never }),
    ).rejects.toThrow('projects[0].wallets[0]: unknown wallet nosuchwallet')
    await expect(
      buildApp({ projects: withProject({}), trustProxy: ['not-an-ip'] }),
    ).rejects.toThrow('trustProxy')
  })
})
