import { measure } from '../bench/bundle-measure'
import { createConsumer, packTarball } from '../test/support/packed'
const c = createConsumer(packTarball())
for (const b of ['esbuild','rollup'] as const) {
  const m = await measure(b, "export { defineConnectElements } from 'scope-connect/ui'", c.dir)
  console.log(b, 'initial', m.initial.gzip, 'total', m.total.gzip)
  for (const l of m.lazy) console.log('  ', l.name, l.gzip)
}
c.remove()
