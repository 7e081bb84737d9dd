import { defineConfig } from 'tsup'

// ESM + CJS with declarations. Declarations come from TypeScript 5.9 (tsup needs the JS compiler API).
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    wire: 'src/wire/index.ts',
    machines: 'machines/index.ts',
    wallet: 'src/wallet/index.ts',
    qr: 'src/qr/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['@metamask/sdk'],
})
