/**
 * Finds every transition of every XState machine written in one source file, statically, with the
 * TypeScript compiler API: the state tree (`states`, custom `id`s), and for each transition its
 * source state, its runtime event descriptor and position, its guard, its targets, and how to
 * rewrite the source so that only this one transition changes.
 *
 * Forms understood: `on` / `always` / `after` / state `onDone` / `invoke.onDone|onError|onSnapshot`
 * values that are a target string, a transition object, or an array of those; arrays and objects
 * behind module-level `const`s (spread or referenced, e.g. `onError: ON_FETCH_ERROR`); transitions
 * returned by module-level helper functions (`endOnCode('USER_REJECTED', 'rejected')`); targets
 * written as sibling names (`'idle'`, `'a.b'`), child paths (`'.cancelled'`) and ids
 * (`'#machine.state'`). A transition reached through a shared constant is rewritten at its use site
 * (`ON_FETCH_ERROR.map(...)`), so the other users of the constant keep the original. A state config
 * shared the same way (`states: HANDSHAKE`, `token: HANDSHAKE.token`, `token: tokenStep()`) gives
 * each of its users states of their own; an edit inside it is lifted to the use site (`SharedUse`):
 * the reference is replaced by an edited copy of what it stands for, so only that use changes.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import ts from 'typescript'

export interface ChartState {
  /** The runtime id: the custom `id`, or `<machine id>.<path>`. */
  id: string
  key: string
  path: string[]
  parent: ChartState | undefined
  children: ChartState[]
}

/** One resolved target of a transition, as written in the source. */
export interface TargetRef {
  /** The target string as written (`'sleeping'`, `'.cancelled'`, `'#sessionPolling.expired'`). */
  text: string
  state: ChartState
  /** 1-based line of the target string. */
  line: number
}

/** How the source is rewritten to change one transition and nothing else. */
export type TransitionEdit =
  /** A target shorthand written in place (`RESET: 'idle'`): the string is replaced. */
  | { kind: 'shorthand'; start: number; end: number }
  /** An object written in place with its own `target` property: the property value is replaced. */
  | { kind: 'property'; start: number; end: number }
  /**
   * A transition from elsewhere (a constant, a helper call, a spread): wrapped where it is used.
   * `prefix` keeps a shorthand property valid (`{ RETRY }` → `{ RETRY: <wrapped> }`).
   */
  | { kind: 'wrap'; start: number; end: number; text: string; prefix: string; shorthand: boolean }
  /** An array from elsewhere: mapped where it is used, replacing the element at `index`. */
  | {
      kind: 'wrap-element'
      start: number
      end: number
      text: string
      prefix: string
      index: number
      shorthand: boolean
    }

/** A source change given as a range and its replacement (`text: ''` removes the range). */
export interface SourceEdit {
  start: number
  end: number
  text: string
}

/**
 * A module-level constant or helper that a state config was reached through, from the same file: a
 * constant's name (its initializer is `decl`) or a helper call's callee (the function is `decl`).
 */
export interface SharedUse {
  /** The file both are in (relative to the project root); the offsets are in it. */
  file: string
  /** The reference at its use site, and what keeps a shorthand property valid (`{ x }` → `x: `). */
  use: { start: number; end: number; prefix: string }
  decl: { start: number; end: number }
}

/**
 * An edit inside shared code, made for one use only: the edit inside `decl` becomes the
 * replacement of the use by an edited copy of `decl`. `shared` lists the uses outermost first (a
 * constant used by a constant); an edit outside every `decl` is returned as it is.
 */
export function liftEdit(text: string, edit: SourceEdit, shared: readonly SharedUse[]): SourceEdit {
  let lifted = edit
  for (const { use, decl } of [...shared].reverse()) {
    if (lifted.start < decl.start || lifted.end > decl.end) continue
    const copy =
      text.slice(decl.start, lifted.start) + lifted.text + text.slice(lifted.end, decl.end)
    lifted = { start: use.start, end: use.end, text: `${use.prefix}(${copy})` }
  }
  return lifted
}

/** Where a transition is declared in its state's config. */
export type TransitionOrigin =
  | 'on'
  | 'always'
  | 'after'
  | 'onDone'
  | 'invoke.onDone'
  | 'invoke.onError'
  | 'invoke.onSnapshot'

export interface TransitionSite {
  machineId: string
  /**
   * The file the edits apply to when it is not the machine's own: a state config imported from a
   * sibling module (`setup(...).createStateConfig`), relative to the project root.
   */
  file?: string
  source: ChartState
  /** The runtime event descriptor (`CANCEL`, `xstate.done.actor.fetchResult`, `always`, …). */
  event: string
  /** Position within the runtime transition list of `event` on `source`. */
  index: number
  guard: string | undefined
  /** Empty for a targetless transition. */
  targets: TargetRef[]
  /** 1-based line where the transition is used (its line in the state config). */
  line: number
  edit: TransitionEdit
  /** The shared state configs the transition was reached through: `edit` is lifted through them. */
  shared: SharedUse[]
  origin: TransitionOrigin
  /** How many transitions the state has for `event` (this one included). */
  siblings: number
  /** The guard as written (name and params), for classifying it; undefined when unguarded. */
  guardText: string | undefined
  /** The actions as written (`actions: …` value), or undefined. */
  actionsText: string | undefined
  /**
   * How to remove this one transition, at its use site: the element of an array written in place,
   * the property when it is the event's only transition, or `(<shared>).filter((_, i) => i !== n)`
   * for an element of a shared array or helper result. Undefined when the transition is declared
   * outside the machine's `createMachine` call in a way that cannot be changed for this use only.
   */
  removal: SourceEdit | undefined
}

/** An invoke with an `onError` handler, and how to remove that handler (the whole key). */
export interface OnErrorSite {
  machineId: string
  /** The file the removal applies to when it is not the machine's own (see `TransitionSite`). */
  file?: string
  source: ChartState
  /** The invoke's id (runtime `xstate.error.actor.<id>`). */
  id: string
  /** The runtime error event (`xstate.error.actor.<id>`). */
  event: string
  /** How many transitions the `onError` holds. */
  transitions: number
  /** 1-based line of the `onError` key (or of the invoke when it is wrapped). */
  line: number
  removal: SourceEdit | undefined
}

export interface ChartMachine {
  id: string
  /** The exported binding holding the machine, when it is one (`export const xMachine = …`). */
  exportName: string | undefined
  root: ChartState
  /** Every state, root first, in definition order. */
  states: ChartState[]
  transitions: TransitionSite[]
  /** Every invoke with an `onError`, in state definition order. */
  onErrors: OnErrorSite[]
  /** Transitions or targets written in a form this analysis does not follow. */
  unsupported: Array<{ line: number; reason: string }>
  /** The text of each imported module a state config came from, by file (relative to the root). */
  sources: Record<string, string>
}

/** Parameters of a helper function being followed, bound to the call's arguments. */
type Env = Map<string, { value: ts.Expression; env: Env }>

interface Found {
  config: ts.Expression
  env: Env
  /** Set when the transition was reached through a reference (its outermost one). */
  via?: { node: ts.Expression; index: number | undefined }
}

/** A config value with the bindings it reads and the shared configs it was reached through. */
interface Entry {
  value: ts.Expression
  env: Env
  node: ts.ObjectLiteralElementLike
  shared: SharedUse[]
}

const unwrap = (node: ts.Expression): ts.Expression => {
  let current = node
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isTypeAssertionExpression(current)
  ) {
    current = current.expression
  }
  return current
}

const propertyName = (name: ts.PropertyName): string | undefined => {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))
    return name.text
  if (ts.isNumericLiteral(name)) return String(Number(name.text))
  return undefined
}

/** Reads a module of the project (a path relative to its root); undefined when there is none. */
export type ReadModule = (fileName: string) => string | undefined

const readFromCwd: ReadModule = (fileName) => {
  try {
    return readFileSync(fileName, 'utf8')
  } catch {
    return undefined
  }
}

interface ModuleScope {
  constants: Map<string, ts.Expression>
  functions: Map<string, ts.SignatureDeclaration & { body?: ts.Node }>
  /** Names imported from a relative module: the module's file and the exported name. */
  imports: Map<string, { fileName: string; name: string }>
}

/** Module-level constants, functions and relative imports of a source file, by name. */
function moduleScope(file: ts.SourceFile): ModuleScope {
  const constants = new Map<string, ts.Expression>()
  const functions = new Map<string, ts.SignatureDeclaration & { body?: ts.Node }>()
  const imports = new Map<string, { fileName: string; name: string }>()
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue
        const init = unwrap(declaration.initializer)
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init))
          functions.set(declaration.name.text, init)
        else constants.set(declaration.name.text, declaration.initializer)
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      functions.set(statement.name.text, statement)
    } else if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text.startsWith('.') &&
      statement.importClause?.namedBindings &&
      ts.isNamedImports(statement.importClause.namedBindings) &&
      !statement.importClause.isTypeOnly
    ) {
      const fileName = `${join(dirname(file.fileName), statement.moduleSpecifier.text).split('\\').join('/')}.ts`
      for (const element of statement.importClause.namedBindings.elements)
        imports.set(element.name.text, {
          fileName,
          name: (element.propertyName ?? element.name).text,
        })
    }
  }
  return { constants, functions, imports }
}

/**
 * Analyses every `createMachine({...})` call of a source file. A state config imported from a
 * sibling module (`export const walletRegion = setup(...).createStateConfig({...})`) is followed
 * into that module (read with `readModule`), so its transitions are the machine's too.
 */
export function analyzeSource(
  fileName: string,
  text: string,
  readModule: ReadModule = readFromCwd,
): ChartMachine[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const line = (node: ts.Node) =>
    node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1

  const scopes = new Map<ts.SourceFile, ModuleScope>([[file, moduleScope(file)]])
  const modules = new Map<string, ts.SourceFile | undefined>()
  const sources: Record<string, string> = {}
  const scopeOf = (node: ts.Node) => {
    const sourceFile = node.getSourceFile()
    let scope = scopes.get(sourceFile)
    if (!scope) {
      scope = moduleScope(sourceFile)
      scopes.set(sourceFile, scope)
    }
    return scope
  }
  /** The initializer of `export const <name>` in a relative module, parsed once. */
  const imported = (from: { fileName: string; name: string }): ts.Expression | undefined => {
    if (!modules.has(from.fileName)) {
      const moduleText = readModule(from.fileName)
      modules.set(
        from.fileName,
        moduleText === undefined
          ? undefined
          : ts.createSourceFile(
              from.fileName,
              moduleText,
              ts.ScriptTarget.Latest,
              true,
              ts.ScriptKind.TS,
            ),
      )
      if (moduleText !== undefined) sources[from.fileName] = moduleText
    }
    const module = modules.get(from.fileName)
    return module && scopeOf(module).constants.get(from.name)
  }

  /**
   * What a reference (identifier or helper call) stands for, with the bindings of its body. With
   * `shared`, a constant or helper of the reference's own file is added to it (see `SharedUse`).
   */
  const dereference = (
    node: ts.Expression,
    env: Env,
    shared?: SharedUse[],
  ): { value: ts.Expression; env: Env } | undefined => {
    const e = unwrap(node)
    if (ts.isIdentifier(e)) {
      const bound = env.get(e.text)
      if (bound) return bound
      const scope = scopeOf(e)
      const value = scope.constants.get(e.text)
      if (value) {
        shared?.push(sharedUse(e, value))
        return { value, env: new Map() }
      }
      const from = scope.imports.get(e.text)
      const exported = from && imported(from)
      return exported ? { value: exported, env: new Map() } : undefined
    }
    // A state config built with `setup(...).createStateConfig({...})` is its argument.
    if (
      ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      e.expression.name.text === 'createStateConfig' &&
      e.arguments[0]
    )
      return { value: e.arguments[0], env }
    // A property of an object config (`...operationsRegion.on`).
    if (ts.isPropertyAccessExpression(e)) {
      const object = resolveObject(e.expression, env, shared)
      const property = object?.value.properties.find(
        (p): p is ts.PropertyAssignment =>
          ts.isPropertyAssignment(p) && propertyName(p.name) === e.name.text,
      )
      return property && object ? { value: property.initializer, env: object.env } : undefined
    }
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      const fn = scopeOf(e).functions.get(e.expression.text)
      if (!fn?.body) return undefined
      const body = returned(fn.body)
      if (!body) return undefined
      shared?.push(sharedUse(e.expression, functionText(fn)))
      const bindings: Env = new Map()
      fn.parameters.forEach((parameter, i) => {
        const argument = e.arguments[i] ?? parameter.initializer
        if (ts.isIdentifier(parameter.name) && argument)
          bindings.set(parameter.name.text, {
            value: argument,
            env: e.arguments[i] ? env : new Map(),
          })
      })
      return { value: body, env: bindings }
    }
    return undefined
  }

  /** `reference` standing for `decl`; as a shorthand property (`{ x }`) it keeps its key. */
  const sharedUse = (reference: ts.Identifier, decl: ts.Node | { start: number; end: number }) => {
    const prefix = ts.isShorthandPropertyAssignment(reference.parent) ? `${reference.text}: ` : ''
    return {
      file: reference.getSourceFile().fileName,
      use: { start: reference.getStart(), end: reference.getEnd(), prefix },
      decl: 'kind' in decl ? { start: decl.getStart(), end: decl.getEnd() } : decl,
    }
  }
  /** A helper's range as an expression: a function declaration from its `function` keyword on. */
  const functionText = (fn: ts.SignatureDeclaration & { body?: ts.Node }) => {
    const keyword = ts.isFunctionDeclaration(fn)
      ? fn.getChildren().find((c) => c.kind === ts.SyntaxKind.FunctionKeyword)
      : undefined
    return { start: (keyword ?? fn).getStart(), end: fn.getEnd() }
  }

  const returned = (body: ts.Node): ts.Expression | undefined => {
    if (ts.isBlock(body)) {
      const returns = body.statements.filter(ts.isReturnStatement)
      return returns.length === 1 ? returns[0]!.expression : undefined
    }
    return body as ts.Expression
  }

  const isReference = (node: ts.Expression) => {
    const e = unwrap(node)
    return ts.isIdentifier(e) || ts.isCallExpression(e)
  }

  const machines: ChartMachine[] = []

  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isCreateMachine(node.expression) && node.arguments[0]) {
      const shared: SharedUse[] = []
      const config = resolveObject(node.arguments[0], new Map(), shared)
      if (config) machines.push(analyzeMachine(node, config.value, config.env, shared))
    }
    ts.forEachChild(node, visit)
  }

  /** The object literal a config value is, following references; `shared` as `dereference`. */
  const resolveObject = (
    node: ts.Expression,
    env: Env,
    shared?: SharedUse[],
  ): { value: ts.ObjectLiteralExpression; env: Env } | undefined => {
    let current: { value: ts.Expression; env: Env } | undefined = { value: node, env }
    for (let hops = 0; current && hops < 10; hops++) {
      const e = unwrap(current.value)
      if (ts.isObjectLiteralExpression(e)) return { value: e, env: current.env }
      current = dereference(e, current.env, shared)
    }
    return undefined
  }

  const analyzeMachine = (
    call: ts.CallExpression,
    config: ts.ObjectLiteralExpression,
    env: Env,
    rootShared: SharedUse[],
  ): ChartMachine => {
    const unsupported: ChartMachine['unsupported'] = []
    const stringValue = (
      node: ts.Expression | undefined,
      scope: Env,
    ): ts.StringLiteralLike | undefined => {
      if (!node) return undefined
      const e = unwrap(node)
      if (ts.isStringLiteralLike(e)) return e
      const target = dereference(e, scope)
      return target ? stringValue(target.value, target.env) : undefined
    }
    /** An object's properties; those spread from a shared object carry it in `shared`. */
    const props = (object: ts.ObjectLiteralExpression, scope: Env) => {
      const map = new Map<string, Entry>()
      for (const property of object.properties) {
        if (ts.isPropertyAssignment(property)) {
          const name = propertyName(property.name)
          if (name !== undefined)
            map.set(name, { value: property.initializer, env: scope, node: property, shared: [] })
          else unsupported.push({ line: line(property), reason: 'computed property name' })
        } else if (ts.isShorthandPropertyAssignment(property)) {
          map.set(property.name.text, {
            value: property.name,
            env: scope,
            node: property,
            shared: [],
          })
        } else if (ts.isSpreadAssignment(property)) {
          const shared: SharedUse[] = []
          const spread = resolveObject(property.expression, scope, shared)
          if (spread)
            for (const [k, v] of props(spread.value, spread.env))
              map.set(k, { ...v, shared: [...shared, ...v.shared] })
        }
      }
      return map
    }
    /** The object an entry's value is, and every shared config on the way to it. */
    const resolveEntry = (entry: Entry | undefined, outer: readonly SharedUse[]) => {
      if (!entry) return undefined
      const shared = [...outer, ...entry.shared]
      const object = resolveObject(entry.value, entry.env, shared)
      return object && { ...object, shared }
    }

    const rootProps = props(config, env)
    const machineId = stringValue(rootProps.get('id')?.value, env)?.text ?? '(machine)'

    // ---- the state tree -------------------------------------------------------------------------
    const configs = new Map<
      ChartState,
      { object: ts.ObjectLiteralExpression; env: Env; shared: SharedUse[] }
    >()
    const build = (
      object: ts.ObjectLiteralExpression,
      scope: Env,
      shared: SharedUse[],
      key: string,
      path: string[],
      parent: ChartState | undefined,
    ): ChartState => {
      const own = props(object, scope)
      const customId = stringValue(own.get('id')?.value, scope)?.text
      const state: ChartState = {
        id: parent ? (customId ?? [machineId, ...path].join('.')) : machineId,
        key,
        path,
        parent,
        children: [],
      }
      configs.set(state, { object, env: scope, shared })
      const statesObject = resolveEntry(own.get('states'), shared)
      if (statesObject) {
        for (const [childKey, child] of props(statesObject.value, statesObject.env)) {
          const childObject = resolveEntry(child, statesObject.shared)
          if (childObject)
            state.children.push(
              build(
                childObject.value,
                childObject.env,
                childObject.shared,
                childKey,
                [...path, childKey],
                state,
              ),
            )
          else
            unsupported.push({
              line: line(child.node),
              reason: `state "${childKey}" not an object`,
            })
        }
      }
      return state
    }
    const root = build(config, env, rootShared, machineId, [], undefined)
    const states: ChartState[] = []
    const collect = (state: ChartState) => {
      states.push(state)
      state.children.forEach(collect)
    }
    collect(root)

    // ---- target resolution (as XState's resolveTarget) ---------------------------------------
    const byPath = (from: ChartState, segments: string[]): ChartState | undefined => {
      let current: ChartState | undefined = from
      for (const segment of segments) current = current?.children.find((c) => c.key === segment)
      return current
    }
    const resolve = (source: ChartState, text: string): ChartState | undefined => {
      if (text.startsWith('#')) {
        const [id, ...rest] = text.slice(1).split('.')
        const anchor = states.find((s) => s.id === id)
        return anchor && byPath(anchor, rest)
      }
      if (text.startsWith('.')) return byPath(source, text.slice(1).split('.'))
      return source.parent ? byPath(source.parent, text.split('.')) : undefined
    }

    // ---- transitions ------------------------------------------------------------------------------
    const transitions: TransitionSite[] = []
    const onErrors: OnErrorSite[] = []

    /** Inside this machine's `createMachine(...)` call: changing it there changes this use only. */
    const inMachine = (node: ts.Node) => {
      if (node.getSourceFile() === file)
        return node.getStart() >= call.getStart() && node.getEnd() <= call.getEnd()
      // In an imported state config: the machine is its one use.
      for (let up: ts.Node | undefined = node; up; up = up.parent)
        if (
          ts.isCallExpression(up) &&
          ts.isPropertyAccessExpression(up.expression) &&
          up.expression.name.text === 'createStateConfig'
        )
          return true
      return false
    }
    /** The shared configs of `shared` in the file of `node`, the ones an edit there lifts through. */
    const sharedAt = (node: ts.Node, shared: readonly SharedUse[]) =>
      shared.filter((s) => s.file === node.getSourceFile().fileName)
    /** Inside the machine, or inside a shared config it reaches through `shared`: editable for this use. */
    const reachable = (node: ts.Node, shared: readonly SharedUse[]) =>
      inMachine(node) ||
      sharedAt(node, shared).some(
        ({ decl }) => node.getStart() >= decl.start && node.getEnd() <= decl.end,
      )
    /** An edit at `node`, lifted to the use of the shared configs it is in. */
    const liftAt = (node: ts.Node, edit: SourceEdit, shared: readonly SharedUse[]) =>
      liftEdit(node.getSourceFile().text, edit, sharedAt(node, shared))
    /** The file of `node` when it is not the machine's own. */
    const fileOf = (node: ts.Node) =>
      node.getSourceFile() === file ? undefined : node.getSourceFile().fileName
    /** The node with the parentheses and type assertions around it. */
    const outer = (node: ts.Node): ts.Node => {
      let current = node
      while (
        current.parent &&
        (ts.isParenthesizedExpression(current.parent) ||
          ts.isAsExpression(current.parent) ||
          ts.isSatisfiesExpression(current.parent) ||
          ts.isNonNullExpression(current.parent) ||
          ts.isTypeAssertionExpression(current.parent))
      )
        current = current.parent
      return current
    }
    /** Removes a node (an array element or an object property) with the comma after it. */
    const removeNode = (node: ts.Node): SourceEdit => {
      const start = node.getStart()
      let end = node.getEnd()
      const comma = /^\s*,/.exec(node.getSourceFile().text.slice(end))
      if (comma) end += comma[0].length
      return { start, end, text: '' }
    }
    /** How to remove one transition found at `node` (its use site), when it can be done there. */
    const removalOf = (found: Found, shared: readonly SharedUse[]): SourceEdit | undefined => {
      const node = found.via?.node ?? found.config
      if (!reachable(node, shared)) return undefined
      const removal = (): SourceEdit | undefined => {
        if (found.via && found.via.index !== undefined) {
          const prefix = ts.isShorthandPropertyAssignment(node.parent) ? `${node.getText()}: ` : ''
          return {
            start: node.getStart(),
            end: node.getEnd(),
            text: `${prefix}(${node.getText()}).filter((_, i) => i !== ${found.via.index})`,
          }
        }
        const wrapped = outer(node)
        const parent = wrapped.parent
        if (ts.isArrayLiteralExpression(parent)) return removeNode(wrapped)
        if (ts.isPropertyAssignment(parent) && parent.initializer === wrapped)
          return removeNode(parent)
        if (ts.isShorthandPropertyAssignment(parent)) return removeNode(parent)
        return undefined
      }
      const edit = removal()
      return edit && liftAt(node, edit, shared)
    }

    /** Flattens a transition value into single transitions, remembering the outermost reference. */
    const expand = (node: ts.Expression, scope: Env, referenced: boolean): Found[] => {
      const e = unwrap(node)
      if (ts.isArrayLiteralExpression(e)) {
        const found: Found[] = []
        for (const element of e.elements) {
          if (ts.isSpreadElement(element)) {
            const inner = unwrap(element.expression)
            if (referenced || ts.isArrayLiteralExpression(inner)) {
              found.push(...expand(inner, scope, referenced))
            } else {
              const target = dereference(inner, scope)
              if (!target) {
                unsupported.push({ line: line(element), reason: 'spread of an unknown array' })
                continue
              }
              found.push(
                ...expand(target.value, target.env, true).map((f, index) => ({
                  ...f,
                  via: { node: element.expression, index },
                })),
              )
            }
          } else {
            found.push(...expand(element, scope, referenced))
          }
        }
        return found
      }
      if (isReference(e)) {
        const target = dereference(e, scope)
        if (!target) {
          unsupported.push({ line: line(e), reason: `unknown transition "${e.getText()}"` })
          return []
        }
        const inner = expand(target.value, target.env, true)
        if (referenced) return inner
        const isArray = ts.isArrayLiteralExpression(unwrap(target.value))
        return inner.map((f, index) => ({
          ...f,
          via: { node: e, index: isArray ? index : undefined },
        }))
      }
      return [{ config: e, env: scope }]
    }

    const guardName = (node: ts.Expression | undefined, scope: Env): string | undefined => {
      if (!node) return undefined
      const literal = stringValue(node, scope)
      if (literal) return literal.text
      const object = resolveObject(node, scope)
      if (object) return guardName(props(object.value, object.env).get('type')?.value, object.env)
      return unwrap(node).getText().replace(/\s+/g, ' ')
    }

    const addTransitions = (
      source: ChartState,
      event: string,
      value: ts.Expression,
      scope: Env,
      origin: TransitionOrigin,
      shared: readonly SharedUse[],
    ) => {
      const all = expand(value, scope, false)
      all.forEach((found, index) => {
        const useNode = found.via?.node ?? found.config
        const config = unwrap(found.config)
        let targetNodes: ts.StringLiteralLike[] = []
        let guard: string | undefined
        let guardText: string | undefined
        let actionsText: string | undefined
        let edit: TransitionEdit | undefined
        const shorthand = ts.isStringLiteralLike(config)
        if (shorthand) {
          targetNodes = [config]
          if (!found.via)
            edit = { kind: 'shorthand', start: config.getStart(), end: config.getEnd() }
        } else if (ts.isObjectLiteralExpression(config)) {
          const own = props(config, found.env)
          guard = guardName(own.get('guard')?.value, found.env)
          guardText = own.get('guard')?.value.getText()
          actionsText = own.get('actions')?.value.getText()
          const target = own.get('target')
          if (target) {
            const value = unwrap(target.value)
            const elements = ts.isArrayLiteralExpression(value) ? [...value.elements] : [value]
            for (const element of elements) {
              const literal = stringValue(element, target.env)
              if (literal) targetNodes.push(literal)
              else unsupported.push({ line: line(element), reason: 'target not a string' })
            }
            const inPlace =
              !found.via &&
              ts.isPropertyAssignment(target.node) &&
              config.properties.includes(target.node)
            if (inPlace)
              edit = {
                kind: 'property',
                start: target.value.getStart(),
                end: target.value.getEnd(),
              }
          }
        } else {
          unsupported.push({ line: line(config), reason: 'transition not a string or an object' })
          return
        }
        if (!edit) {
          const node = found.via?.node ?? found.config
          const text = node.getText()
          const start = node.getStart()
          const end = node.getEnd()
          const prefix = ts.isShorthandPropertyAssignment(node.parent) ? `${text}: ` : ''
          edit =
            found.via?.index === undefined
              ? { kind: 'wrap', start, end, text, prefix, shorthand }
              : {
                  kind: 'wrap-element',
                  start,
                  end,
                  text,
                  prefix,
                  index: found.via.index,
                  shorthand,
                }
        }
        const targets: TargetRef[] = []
        for (const literal of targetNodes) {
          const state = resolve(source, literal.text)
          if (state) targets.push({ text: literal.text, state, line: line(literal) })
          else
            unsupported.push({ line: line(literal), reason: `unresolved target "${literal.text}"` })
        }
        if (targets.length !== targetNodes.length) return
        const siteFile = fileOf(useNode)
        transitions.push({
          machineId,
          ...(siteFile ? { file: siteFile } : {}),
          source,
          event,
          index,
          guard,
          targets,
          line: line(useNode),
          edit,
          shared: sharedAt(useNode, shared),
          origin,
          siblings: all.length,
          guardText,
          actionsText,
          removal: removalOf(found, shared),
        })
      })
    }

    for (const state of states) {
      const { object, env: scope, shared } = configs.get(state)!
      const own = props(object, scope)
      const onObject = resolveEntry(own.get('on'), shared)
      if (onObject)
        for (const [event, value] of props(onObject.value, onObject.env))
          addTransitions(state, event, value.value, value.env, 'on', [
            ...onObject.shared,
            ...value.shared,
          ])
      const always = own.get('always')
      if (always)
        addTransitions(state, 'always', always.value, always.env, 'always', [
          ...shared,
          ...always.shared,
        ])
      const afterObject = resolveEntry(own.get('after'), shared)
      if (afterObject)
        for (const [delay, value] of props(afterObject.value, afterObject.env))
          addTransitions(
            state,
            `xstate.after.${delay}.${state.id}`,
            value.value,
            value.env,
            'after',
            [...afterObject.shared, ...value.shared],
          )
      const onDone = own.get('onDone')
      if (onDone && state.parent)
        addTransitions(state, `xstate.done.state.${state.id}`, onDone.value, onDone.env, 'onDone', [
          ...shared,
          ...onDone.shared,
        ])
      const invoke = own.get('invoke')
      if (invoke) {
        const value = unwrap(invoke.value)
        const list = ts.isArrayLiteralExpression(value) ? [...value.elements] : [value]
        const invokeShared = [...shared, ...invoke.shared]
        list.forEach((element, i) => {
          const definition = resolveObject(element, invoke.env)
          if (!definition) {
            unsupported.push({ line: line(element), reason: 'invoke not an object' })
            return
          }
          const invokeProps = props(definition.value, definition.env)
          const id =
            stringValue(invokeProps.get('id')?.value, definition.env)?.text ?? `${i}.${state.id}`
          for (const [key, prefix] of [
            ['onDone', 'xstate.done.actor'],
            ['onError', 'xstate.error.actor'],
            ['onSnapshot', 'xstate.snapshot'],
          ] as const) {
            const handler = invokeProps.get(key)
            if (handler)
              addTransitions(
                state,
                `${prefix}.${id}`,
                handler.value,
                handler.env,
                `invoke.${key}`,
                [...invokeShared, ...handler.shared],
              )
          }
          const onError = invokeProps.get('onError')
          if (onError) {
            // In place: the key is removed. Declared elsewhere (a shared invoke, a spread): the
            // invoke is wrapped where it is used, `{ ...(<invoke>), onError: undefined }`.
            const own =
              reachable(onError.node, invokeShared) &&
              definition.value.properties.includes(onError.node)
            const use = outer(element)
            const removal: SourceEdit | undefined = own
              ? liftAt(onError.node, removeNode(onError.node), invokeShared)
              : reachable(use, invokeShared)
                ? liftAt(
                    element,
                    {
                      start: element.getStart(),
                      end: element.getEnd(),
                      text: `{ ...(${element.getText()}), onError: undefined }`,
                    },
                    invokeShared,
                  )
                : undefined
            const onErrorFile = fileOf(own ? onError.node : element)
            onErrors.push({
              machineId,
              ...(onErrorFile ? { file: onErrorFile } : {}),
              source: state,
              id,
              event: `xstate.error.actor.${id}`,
              transitions: transitions.filter(
                (t) => t.source === state && t.event === `xstate.error.actor.${id}`,
              ).length,
              line: line(own ? onError.node : element),
              removal,
            })
          }
        })
      }
    }

    return {
      id: machineId,
      exportName: exportedBinding(call),
      root,
      states,
      transitions,
      onErrors,
      unsupported,
      sources,
    }
  }

  visit(file)
  return machines
}

function isCreateMachine(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'createMachine'
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'createMachine'
}

function exportedBinding(call: ts.CallExpression): string | undefined {
  let node: ts.Node = call
  while (node.parent && !ts.isVariableDeclaration(node) && !ts.isSourceFile(node))
    node = node.parent
  if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name)) return undefined
  const statement = node.parent?.parent
  const exported =
    statement &&
    ts.isVariableStatement(statement) &&
    statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  return exported ? node.name.text : undefined
}

/** A short label for a runtime event descriptor (`done fetchResult`, `after pollDelay`, …). */
export function eventLabel(event: string): string {
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event)
  if (actor) return `${actor[1]} ${actor[2]}`
  const after = /^xstate\.after\.([^.]+)\./.exec(event)
  if (after) return `after ${after[1]}`
  if (event.startsWith('xstate.done.state.')) return 'done'
  if (event.startsWith('xstate.snapshot.')) return `snapshot ${event.slice(16)}`
  return event
}

/** The state path of `state` for reports (`waiting.fetching`, `(root)`). */
export function statePath(state: ChartState): string {
  return state.path.length ? state.path.join('.') : '(root)'
}
