import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { extractBlocks, ROOT } from './doc-blocks'
import { typeCheckBlocks } from './type-check'

// The packages docs/connectors.md imports beside the library (the optional peer @metamask/sdk and
// MetaMask Connect for the custom-connector example) are installed with their own types, so a doc
// block that misuses them fails to type-check: no untyped `declare module` stands in for them.

const PEERS = ['@metamask/sdk', '@metamask/connect-evm']

describe('docs import optional peers with their real types', () => {
  it('each is a devDependency whose package ships declarations', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>
    }
    for (const name of PEERS) {
      expect(manifest.devDependencies, name).toHaveProperty(name)
      const own = JSON.parse(
        readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { types?: string }
      expect(own.types, name).toBeTruthy()
      expect(existsSync(join(ROOT, 'node_modules', name, own.types ?? '')), name).toBe(true)
    }
  })

  it('docs/connectors.md imports both', () => {
    const page = readFileSync(join(ROOT, 'docs/connectors.md'), 'utf8')
    for (const name of PEERS) expect(page).toContain(`import('${name}')`)
  })

  it('a block that misuses MetaMask Connect is an error (the types are live)', () => {
    const blocks = extractBlocks(
      'docs/example.md',
      "# Example\n\n```ts\nimport { createEVMClient } from '@metamask/connect-evm'\n\nawait createEVMClient({ dapp: { name: 'x', url: 'https://x.example' }, api: { supportedNetworks: 1 } })\n```\n",
    )
    const errors = typeCheckBlocks(blocks).map((error) => error.message)
    expect(errors).toEqual([
      expect.stringMatching(/^docs\/example\.md:6: .*(supportedNetworks|number)/),
    ])
  }, 120_000)
})
