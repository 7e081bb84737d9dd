import type { FastifyInstance } from 'fastify'

/** The registered (method, path) pairs, so an unknown method on a known path is a 405, not a 404. */
export interface RouteTable {
  methodsFor(url: string): string[]
  paths(): string[]
}

export function trackRoutes(app: FastifyInstance): RouteTable {
  const routes: Array<{ pattern: RegExp; path: string; methods: Set<string> }> = []
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    let entry = routes.find((r) => r.path === route.url)
    if (!entry) {
      const source = route.url
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')
      entry = { pattern: new RegExp(`^${source}/?$`), path: route.url, methods: new Set() }
      routes.push(entry)
    }
    for (const method of methods) entry.methods.add(method.toUpperCase())
  })
  return {
    methodsFor(url) {
      const path = url.split('?')[0] ?? url
      const found = routes.find((r) => r.pattern.test(path))
      return found ? [...found.methods].sort() : []
    },
    paths: () => routes.map((r) => r.path),
  }
}
