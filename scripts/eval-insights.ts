// `npm run eval:insights [-- --split held-out|tuning] [--seed 13 --seed 7] [--anchor YYYY-MM-DD] [--lanes 2]`: plants
// the seeded cases of a split in the sandbox, asks the three insight endpoints about each (and about quiet windows),
// and prints and writes the tables to bench/results/insights-eval.md and .json (the held-out split; other splits and
// seeds to insights-eval-<split>.*). A report, not a gate: missed targets still exit 0; failing to run does not.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isIsoDate } from '../src/domain/calendar.ts';
import { runEval } from './insights-eval/run-eval.ts';
import { isSplit } from './insights-eval/splits.ts';
import { renderMarkdown } from './insights-eval/table.ts';

const { values } = parseArgs({ options: { split: { type: 'string' }, seed: { type: 'string', multiple: true }, anchor: { type: 'string' }, lanes: { type: 'string' } } });
if (values.anchor !== undefined && !isIsoDate(values.anchor)) throw new Error(`--anchor takes YYYY-MM-DD, not '${values.anchor}'`);
if (values.split !== undefined && !isSplit(values.split)) throw new Error(`--split takes held-out or tuning, not '${values.split}'`);
const seeds = values.seed?.map(Number);
if (seeds?.some((s) => !Number.isInteger(s))) throw new Error(`--seed takes integers, not '${values.seed?.join(', ')}'`);
const report = await runEval({
  ...(values.split === undefined ? {} : { split: values.split as 'held-out' | 'tuning' }),
  ...(seeds === undefined ? {} : { seeds }),
  ...(values.anchor === undefined ? {} : { anchor: values.anchor }),
  ...(values.lanes === undefined ? {} : { lanes: Number(values.lanes) }),
  log: (line) => process.stderr.write(`${line}\n`),
});
const markdown = renderMarkdown(report);
const dir = join(import.meta.dirname, '..', 'bench', 'results');
const name = report.split === 'held-out' ? 'insights-eval' : `insights-eval-${report.split}`;
await mkdir(dir, { recursive: true });
await writeFile(join(dir, `${name}.md`), `# Insights evaluation\n\n${markdown}`);
await writeFile(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(markdown);
