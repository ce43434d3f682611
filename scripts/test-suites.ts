// Which test files the services CI pass runs, decided from the import graph so a new file cannot be forgotten:
// a file is backend-dependent when it reaches (through relative imports, type-only ones included) a module that
// reads the variable choosing the test runtime's backends. Chromium suites are left to the embedded pass: what
// they add is the page in a browser (axe, layout, CSP, script), which is the same HTML on either backend, while
// the in-process suites of the same pages, writes and grants run in both passes.
// Usage: node scripts/test-suites.ts services   (prints the files, one a line)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Written so that this file's own source does not match it.
const READS_BACKEND_CHOICE = /\benv(?:\.|\[['"])TEST_RUNTIME_BACKEND\b/;
// A value import of the browser driver (type-only imports of its Page type do not start a browser).
const DRIVES_CHROMIUM = /^import\s+(?!type\s)[^;]*?from\s+['"]playwright-core['"]/m;
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

export interface TestSuites {
  /** Every test file of `npm test`, relative to the repository, sorted. */
  all: string[];
  /** The files whose runtimes follow the backend choice (Chromium suites excluded). */
  backend: string[];
  /** The files that drive Chromium. */
  browser: string[];
  /** The modules that read the backend choice themselves. */
  backendReaders: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function relativeImports(file: string, source: string): string[] {
  return [...source.matchAll(RELATIVE_IMPORT)].map((match) => resolve(dirname(file), match[1]!));
}

/** Whether `file` or anything it imports (transitively) satisfies `holds`; memoised per predicate. */
function reaches(graph: Map<string, string[]>, holds: (file: string) => boolean): (file: string) => boolean {
  const known = new Map<string, boolean>();
  const visit = (file: string): boolean => {
    const seen = known.get(file);
    if (seen !== undefined) return seen;
    known.set(file, false); // a cycle adds nothing new
    const result = holds(file) || (graph.get(file) ?? []).some(visit);
    known.set(file, result);
    return result;
  };
  return visit;
}

export function testSuites(repo: string): TestSuites {
  const files = [...sourceFiles(join(repo, 'test')), ...sourceFiles(join(repo, 'src'))];
  const sources = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
  const graph = new Map([...sources].map(([file, source]) => [file, relativeImports(file, source)]));
  const readsBackend = (file: string) => READS_BACKEND_CHOICE.test(sources.get(file) ?? '');
  const drivesChromium = (file: string) => DRIVES_CHROMIUM.test(sources.get(file) ?? '');
  const backendDependent = reaches(graph, readsBackend);
  const browser = reaches(graph, drivesChromium);
  const name = (file: string) => relative(repo, file);
  const all = files.filter((file) => file.startsWith(join(repo, 'test')) && file.endsWith('.test.ts')).sort();
  return {
    all: all.map(name),
    backend: all.filter((file) => backendDependent(file) && !browser(file)).map(name),
    browser: all.filter(browser).map(name),
    backendReaders: files.filter(readsBackend).map(name).sort(),
  };
}

if (import.meta.main) {
  const which = process.argv[2];
  const suites = testSuites(resolve(import.meta.dirname, '..'));
  if (which !== 'services' && which !== 'browser') {
    console.error('usage: node scripts/test-suites.ts services|browser');
    process.exit(2);
  }
  console.log((which === 'services' ? suites.backend : suites.browser).join('\n'));
}
