// The layering rules of .dependency-cruiser.cjs bite: a small tree with one import of each kind (allowed and
// forbidden) is cruised with the project's own rule set, and exactly the forbidden ones are reported.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const cruiser = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

/** file → its source; every import is relative with an explicit .ts, as in src/. */
const TREE: Record<string, string> = {
  'src/app-deps.ts': `export interface AppDeps { name: string }\n`,
  'src/runtime.ts': `export const runtime = 1;\n`,
  'src/errors/app-error.ts': `export class AppError extends Error {}\n`,
  'src/domain/period.ts': `import { AppError } from '../errors/app-error.ts';\nexport const period = AppError;\n`,
  'src/cache/cached-fetch.ts': `import { period } from '../domain/period.ts';\nexport const cachedFetch = period;\n`,
  'src/loaders/analytics-loader.ts': `import { cachedFetch } from '../cache/cached-fetch.ts';\nexport const loader = cachedFetch;\n`,
  // Upward (type-only counts) and, with the context importing the report back, a cycle.
  'src/reports/site-summary.ts': `import type { GraphQLContext } from '../graphql/context.ts';\nimport { loader } from '../loaders/analytics-loader.ts';\nexport const siteSummary = (ctx: GraphQLContext) => [ctx, loader];\n`,
  'src/graphql/context.ts': `import { siteSummary } from '../reports/site-summary.ts';\nexport interface GraphQLContext { run: typeof siteSummary }\n`,
  // The composition root's shape types may be imported from below; its code may not.
  'src/operations/run-endpoint.ts': `import type { AppDeps } from '../app-deps.ts';\nexport const runEndpoint = (deps: AppDeps) => deps;\n`,
  'src/operations/execute.ts': `import { runtime } from '../runtime.ts';\nexport const execute = runtime;\n`,
  // The store may use the crypto leaves of auth, nothing else of it.
  'src/auth/password.ts': `export const hashPassword = 1;\n`,
  'src/auth/api-keys.ts': `export const apiKeys = 1;\n`,
  'src/store/accounts-repository.ts': `import { hashPassword } from '../auth/password.ts';\nimport { apiKeys } from '../auth/api-keys.ts';\nexport const accounts = [hashPassword, apiKeys];\n`,
  // The sandbox imports nothing of Siteline, and only the CLI and the demo import it.
  'src/sandbox/catalogue.ts': `import { period } from '../domain/period.ts';\nexport const catalogue = period;\n`,
  'src/demo/seed-demo.ts': `import { catalogue } from '../sandbox/catalogue.ts';\nexport const seed = catalogue;\n`,
  'src/providers/endpoints.ts': `import { catalogue } from '../sandbox/catalogue.ts';\nexport const endpoints = catalogue;\n`,
  // A folder without a place in the layers.
  'src/widgets/widget.ts': `export const widget = 1;\n`,
  'src/rest/route-table.ts': `import { widget } from '../widgets/widget.ts';\nexport const routes = widget;\n`,
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let dir: string;
let violations: Violation[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'siteline-layering-'));
  for (const [file, source] of Object.entries(TREE)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), source);
  }
  await copyFile(join(repo, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  // Exit code 1 means violations were found: the JSON on stdout is what is asserted, either way.
  const output = await run(process.execPath, [cruiser, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: dir }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  violations = (JSON.parse(output.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the layering rules', () => {
  it('report exactly the forbidden imports of the tree', () => {
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual(
      [
        'no-upward-from-reports: src/reports/site-summary.ts → src/graphql/context.ts',
        'no-circular: src/graphql/context.ts → src/reports/site-summary.ts',
        'no-upward-from-operations: src/operations/execute.ts → src/runtime.ts',
        'no-upward-from-store: src/store/accounts-repository.ts → src/auth/api-keys.ts',
        'sandbox-stands-alone: src/sandbox/catalogue.ts → src/domain/period.ts',
        'sandbox-only-for-cli-and-demo: src/providers/endpoints.ts → src/sandbox/catalogue.ts',
        'every-room-is-placed: src/rest/route-table.ts → src/widgets/widget.ts',
      ].sort(),
    );
  });
});
