// `npm run eval:insights [-- --seed 13] [--anchor YYYY-MM-DD] [--lanes 2]`: plants a seeded set of events in the
// sandbox, asks the three insight endpoints about each, and prints and writes the precision/recall table to
// bench/results/insights-eval.md and .json. A report, not a gate: missed targets still exit 0; failing to run does not.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isIsoDate } from '../src/domain/calendar.ts';
import { runEval } from './insights-eval/run-eval.ts';
import { renderMarkdown } from './insights-eval/table.ts';

const { values } = parseArgs({ options: { seed: { type: 'string' }, anchor: { type: 'string' }, lanes: { type: 'string' } } });
if (values.anchor !== undefined && !isIsoDate(values.anchor)) throw new Error(`--anchor takes YYYY-MM-DD, not '${values.anchor}'`);
const report = await runEval({
  ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
  ...(values.anchor === undefined ? {} : { anchor: values.anchor }),
  ...(values.lanes === undefined ? {} : { lanes: Number(values.lanes) }),
  log: (line) => process.stderr.write(`${line}\n`),
});
const markdown = renderMarkdown(report);
const dir = join(import.meta.dirname, '..', 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'insights-eval.md'), `# Insights evaluation\n\n${markdown}`);
await writeFile(join(dir, 'insights-eval.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(markdown);
