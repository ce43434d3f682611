// The services CI pass runs the files scripts/test-suites.ts selects from the import graph. A small tree shows the
// rule (reaching the module that reads the backend choice, through any chain of imports, selects a file; driving
// Chromium leaves it to the embedded pass), and the real suite shows that no file building a runtime is left out.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSuites } from '../../scripts/test-suites.ts';

const repo = resolve(import.meta.dirname, '../..');
const BACKEND_VARIABLE = ['TEST', 'RUNTIME', 'BACKEND'].join('_');

const TREE: Record<string, string> = {
  'test/helpers/runtime.ts': `export const backend = process.env.${BACKEND_VARIABLE};\n`,
  'test/helpers/sandbox.ts': `import { backend } from './runtime.ts';\nexport const sandbox = backend;\n`,
  'test/helpers/chromium.ts': `import { chromium } from 'playwright-core';\nimport { backend } from './runtime.ts';\nexport const launch = [chromium, backend];\n`,
  'test/helpers/page-type.ts': `import type { Page } from 'playwright-core';\nexport type P = Page;\n`,
  'test/app/direct.test.ts': `import { backend } from '../helpers/runtime.ts';\nvoid backend;\n`,
  'test/app/two-hops.test.ts': `import {\n  sandbox,\n} from '../helpers/sandbox.ts';\nvoid sandbox;\n`,
  'test/app/dynamic.test.ts': `const { sandbox } = await import('../helpers/sandbox.ts');\nvoid sandbox;\n`,
  'test/app/type-only.test.ts': `import type { backend } from '../helpers/runtime.ts';\nexport type B = typeof backend;\n`,
  'test/app/page-type.test.ts': `import type { P } from '../helpers/page-type.ts';\nimport { backend } from '../helpers/runtime.ts';\nexport type Q = P;\nvoid backend;\n`,
  'test/pages/browser.test.ts': `import { launch } from '../helpers/chromium.ts';\nvoid launch;\n`,
  'test/domain/pure.test.ts': `import { parse } from '../../src/domain/parse.ts';\nvoid parse;\n`,
  'test/domain/cycle.test.ts': `import { a } from './cycle-a.ts';\nvoid a;\n`,
  'test/domain/cycle-a.ts': `import { b } from './cycle-b.ts';\nexport const a = b;\n`,
  'test/domain/cycle-b.ts': `import { a } from './cycle-a.ts';\nexport const b = () => a;\n`,
  'src/domain/parse.ts': `export const parse = 1;\n`,
};

describe('selecting the services pass from the import graph', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'siteline-suites-'));
    for (const [path, source] of Object.entries(TREE)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), source);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('selects every file that reaches the backend choice, however it imports it, and nothing else', () => {
    const suites = testSuites(dir);
    expect(suites.backendReaders).toEqual(['test/helpers/runtime.ts']);
    expect(suites.backend).toEqual(['test/app/direct.test.ts', 'test/app/dynamic.test.ts', 'test/app/page-type.test.ts', 'test/app/two-hops.test.ts', 'test/app/type-only.test.ts']);
    expect(suites.browser).toEqual(['test/pages/browser.test.ts']);
    expect(suites.all).toHaveLength(8);
  });
});

describe('the real suite', () => {
  const suites = testSuites(repo);

  it('the test runtime helper is the module that reads the backend choice, and src/ never does', () => {
    expect(suites.backendReaders).toContain('test/helpers/test-runtime.ts');
    expect(suites.backendReaders.filter((file) => file.startsWith('src/'))).toEqual([]);
  });

  it('every file that builds a runtime, a sandbox runtime or the demo runs in the services pass or is a Chromium suite', async () => {
    const builders = /\b(createTestRuntime|createSandboxRuntime|createExampleRuntime|serveDemo|serveTestRuntime)\(/;
    const building: string[] = [];
    for (const file of suites.all) if (builders.test(await readFile(join(repo, file), 'utf8'))) building.push(file);
    expect(building.length).toBeGreaterThan(50);
    expect(building.filter((file) => !suites.backend.includes(file) && !suites.browser.includes(file))).toEqual([]);
    expect(suites.backend).toContain('test/app/test-runtime-backend.test.ts');
  });

  it('pure suites and Chromium suites stay out of the services pass', () => {
    expect(suites.backend.filter((file) => file.startsWith('test/domain/'))).toEqual([]);
    expect(suites.browser).toContain('test/docs/docs-browser.test.ts');
    expect(suites.backend.filter((file) => suites.browser.includes(file))).toEqual([]);
  });
});
