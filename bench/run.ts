// `npm run bench`: runs every suite under bench/suites (or those named on the command line) and writes
// bench/results/<timestamp>.json and .md plus latest.json/latest.md. Targets are checked and reported, not asserted.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { SuiteResult } from './suite.ts';
import { renderMarkdown } from './report.ts';

const here = import.meta.dirname;
// `--profile` adds the profile suite (the server under --cpu-prof); other arguments name the suites to run.
const args = process.argv.slice(2);
if (args.includes('--profile')) process.env.BENCH_PROFILE = '1';
const only = args.filter((a) => a !== '--profile');
const files = (await readdir(join(here, 'suites'))).filter((f) => f.endsWith('.ts')).sort();
const results: SuiteResult[] = [];
for (const file of files) {
  const name = file.replace(/\.ts$/, '');
  if (only.length && !only.includes(name)) continue;
  if (name === 'profile' && process.env.BENCH_PROFILE !== '1') continue;
  process.stderr.write(`bench: ${name}...\n`);
  const suite = (await import(join(here, 'suites', file))) as { default: () => Promise<SuiteResult | undefined> };
  const result = await suite.default();
  if (result) results.push(result);
}
const report = { startedAt: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg()[0], suites: results };
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
