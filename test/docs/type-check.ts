import { join } from 'node:path'
import ts from 'typescript'
import { blockFile, blockSource, type DocBlock, ROOT } from './doc-blocks'

export interface BlockError {
  block: DocBlock
  /** `docs/page.md:LINE: message`, LINE being the page's own line. */
  message: string
}

/**
 * The library's and the libs' parsed files, shared by every check of the process (as a language
 * service shares them between programs): a second check parses only its blocks.
 */
const parsedFiles = new Map<string, ts.SourceFile>()

/**
 * Type-checks doc blocks as virtual files beside their pages, with the repository's compiler
 * options (strict; `scope-connect` → `src/` through `paths`) plus JSX for `tsx` blocks.
 */
export function typeCheckBlocks(blocks: DocBlock[]): BlockError[] {
  const configFile = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT)
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    noUnusedLocals: false,
  }
  const virtual = new Map(blocks.map((block) => [blockFile(block), block]))
  const host = ts.createCompilerHost(options)
  const { fileExists, readFile, getSourceFile } = host
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file)
  host.readFile = (file) => {
    const block = virtual.get(file)
    return block ? blockSource(block) : readFile.call(host, file)
  }
  host.getSourceFile = (file, language, onError, create) => {
    const block = virtual.get(file)
    if (block) return ts.createSourceFile(file, blockSource(block), language, true)
    const key = `${file}\0${JSON.stringify(language)}`
    let source = parsedFiles.get(key)
    if (!source) {
      source = getSourceFile.call(host, file, language, onError, create)
      if (source) parsedFiles.set(key, source)
    }
    return source
  }
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host })
  const errors: BlockError[] = []
  for (const [file, block] of virtual) {
    const source = program.getSourceFile(file)
    if (!source) continue
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]
    const preludeLines = block.prelude.split('\n').length
    for (const diagnostic of diagnostics) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
      const pageLine = block.line + (line + 1 - preludeLines)
      errors.push({
        block,
        message: `${block.page}:${pageLine}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
      })
    }
  }
  return errors
}
