// Type-checks generated client code in memory with `tsc --strict` (the TypeScript compiler API, no files, no
// process), and walks the types a client would use: which paths can be null, which are `any` or `unknown`, which are
// open records (an index signature). The typed-client tests hold the generated GraphQL and OpenAPI clients to that.
import ts from 'typescript';

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts'],
  types: [],
  skipLibCheck: true,
};

export interface Compiled {
  /** Every error tsc --strict reports, as text. */
  diagnostics: string[];
  /** The type an exported alias of `file` names. */
  typeOf(file: string, alias: string): ts.Type;
  checker: ts.TypeChecker;
}

/** Compiles `files` (name → source, all in one virtual folder) against the standard library only. */
export function compileStrict(files: Readonly<Record<string, string>>): Compiled {
  const root = '/generated/';
  const host = ts.createCompilerHost(OPTIONS);
  const original = { getSourceFile: host.getSourceFile, fileExists: host.fileExists, readFile: host.readFile };
  const own = (name: string) => (name.startsWith(root) ? files[name.slice(root.length)] : undefined);
  host.getSourceFile = (name, language, ...rest) => {
    const text = own(name);
    return text === undefined ? original.getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language, true);
  };
  host.fileExists = (name) => own(name) !== undefined || original.fileExists(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => `${name}/`.startsWith(root) || (directoryExists?.(name) ?? false);
  host.readFile = (name) => own(name) ?? original.readFile(name);
  const program = ts.createProgram(Object.keys(files).map((name) => root + name), OPTIONS, host);
  const checker = program.getTypeChecker();
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return {
    diagnostics,
    checker,
    typeOf(file, alias) {
      const source = program.getSourceFile(root + file);
      const symbol = source && checker.getSymbolAtLocation(source)?.exports?.get(ts.escapeLeadingUnderscores(alias));
      if (!symbol) throw new Error(`${file} exports no ${alias}`);
      return checker.getDeclaredTypeOfSymbol(symbol);
    },
  };
}

export interface TypeFindings {
  /** Paths (`projects.nodes[].summary`) whose type includes null. */
  nullable: string[];
  /** Paths typed `any` or `unknown`. */
  untyped: string[];
  /** Paths of objects with an index signature (`Record<string, …>`, `[key: string]: …`). */
  openRecords: string[];
}

/** Every property path of `type`, recursively (arrays as `[]`), with what is nullable, untyped or open. */
export function walkType(checker: ts.TypeChecker, type: ts.Type, path = '', seen = new Set<ts.Type>(), found: TypeFindings = { nullable: [], untyped: [], openRecords: [] }): TypeFindings {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
    found.untyped.push(path || '(root)');
    return found;
  }
  if (type.isUnion()) {
    if (type.types.some((t) => t.flags & ts.TypeFlags.Null)) found.nullable.push(path);
    for (const member of type.types) if (!(member.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))) walkType(checker, member, path, seen, found);
    return found;
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const element of checker.getTypeArguments(type as ts.TypeReference)) walkType(checker, element, `${path}[]`, seen, found);
    return found;
  }
  if (!(type.flags & ts.TypeFlags.Object) || seen.has(type)) return found;
  seen.add(type);
  if (checker.getIndexInfosOfType(type).length > 0) found.openRecords.push(path || '(root)');
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const propertyType = declaration ? checker.getTypeOfSymbolAtLocation(property, declaration) : checker.getTypeOfSymbol(property);
    walkType(checker, propertyType, path ? `${path}.${property.name}` : property.name, seen, found);
  }
  seen.delete(type);
  return found;
}
