// Fails a CI pass whose vitest JSON report has any skipped, pending or todo test: a suite that silently skips
// (a missing service, a forgotten .skip) proves nothing while the run stays green.
// With `--files <list>` (one path a line, relative to the repository) it also fails unless the report has exactly
// those test files: a pass given a selection must have run all of it and nothing else.
// Usage: node .ci/check-no-skips.mjs test-results/<pass>.json [--files test-results/<pass>.files]
import { readFileSync } from 'node:fs';

const [file, flag, listFile] = process.argv.slice(2);
if (!file || (flag !== undefined && (flag !== '--files' || !listFile))) {
  console.error('usage: node .ci/check-no-skips.mjs <vitest-json-report> [--files <list of test files>]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
if (listFile) {
  const expected = new Set(readFileSync(listFile, 'utf8').split('\n').filter(Boolean));
  const ran = new Set(report.testResults.map((suite) => suite.name.replace(`${process.cwd()}/`, '')));
  const missing = [...expected].filter((name) => !ran.has(name));
  const extra = [...ran].filter((name) => !expected.has(name));
  if (missing.length > 0 || extra.length > 0) {
    console.error(`${file}: the report's files differ from ${listFile}`);
    for (const name of missing) console.error(`  not run: ${name}`);
    for (const name of extra) console.error(`  not listed: ${name}`);
    process.exit(1);
  }
  console.log(`${file}: ran exactly the ${expected.size} files of ${listFile}`);
}
const NOT_RUN = new Set(['skipped', 'pending', 'todo', 'disabled']);
const notRun = report.testResults.flatMap((suite) =>
  suite.assertionResults.filter((test) => NOT_RUN.has(test.status)).map((test) => `${suite.name.replace(`${process.cwd()}/`, '')} > ${test.fullName} (${test.status})`),
);
const total = report.numTotalTests;
if (notRun.length > 0 || report.numPendingTests > 0 || report.numTodoTests > 0) {
  console.error(`${file}: ${Math.max(notRun.length, report.numPendingTests + report.numTodoTests)} of ${total} tests did not run:`);
  for (const line of notRun.slice(0, 50)) console.error(`  ${line}`);
  if (notRun.length > 50) console.error(`  … and ${notRun.length - 50} more`);
  process.exit(1);
}
if (total === 0) {
  console.error(`${file}: no tests ran`);
  process.exit(1);
}
console.log(`${file}: all ${total} tests ran (none skipped)`);
