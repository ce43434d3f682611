// `npm run bench`: runs every suite under bench/suites (or those named on the command line) and writes
// bench/results/<timestamp>.json and .md plus latest.json/latest.md. Targets are checked and reported, not asserted.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SuiteResult } from './suite.ts';
import { renderMarkdown } from './report.ts';

const here = import.meta.dirname;
const only = process.argv.slice(2);
const files = (await readdir(join(here, 'suites'))).filter((f) => f.endsWith('.ts')).sort();
const results: SuiteResult[] = [];
for (const file of files) {
  const name = file.replace(/\.ts$/, '');
  if (only.length && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}...\n`);
  const suite = (await import(join(here, 'suites', file))) as { default: () => Promise<SuiteResult> };
  results.push(await suite.default());
}
const report = { startedAt: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, suites: results };
const dir = join(here, 'results');
await mkdir(dir, { recursive: true });
const stamp = report.startedAt.replace(/[:.]/g, '-');
const markdown = renderMarkdown(report);
await Promise.all([
  writeFile(join(dir, `${stamp}.json`), JSON.stringify(report, null, 2)),
  writeFile(join(dir, `${stamp}.md`), markdown),
  writeFile(join(dir, 'latest.json'), JSON.stringify(report, null, 2)),
  writeFile(join(dir, 'latest.md'), markdown),
]);
process.stdout.write(markdown);
