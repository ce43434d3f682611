// Fails a CI pass whose vitest JSON report has any skipped, pending or todo test: a suite that silently skips
// (a missing service, a forgotten .skip) proves nothing while the run stays green.
// Usage: node .ci/check-no-skips.mjs test-results/<pass>.json
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node .ci/check-no-skips.mjs <vitest-json-report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
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
