// Runs one documented example against the in-process demo: to record its output, or to check that the live
// answer still has the status and shape the docs show.
import { parseCurl } from './curl-command.ts';
import type { DocsDemo, DocResponse } from './docs-demo.ts';
import type { DocExample } from './markdown-examples.ts';
import { bodyOf, documentedValue, renderOutput, shapeMismatches, type RenderedOutput } from './recorded-output.ts';

export async function runExample(demo: DocsDemo, example: DocExample): Promise<DocResponse> {
  return demo.send(parseCurl(example.command, demo.variables));
}

/** The output block to write for an example; an error answer is recorded only where the docs already show one. */
export async function recordExample(demo: DocsDemo, example: DocExample): Promise<RenderedOutput> {
  if (!example.output) throw new Error(`${where(example)}: no output block to record into`);
  const response = await runExample(demo, example);
  const expected = expectedStatus(example);
  if (expected === undefined ? response.status >= 400 : response.status !== expected) {
    throw new Error(`${where(example)}: answered ${response.status}: ${response.text.slice(0, 300)}`);
  }
  return renderOutput(response, example.output.options);
}

/**
 * Commands addressed to the demo (the API on localhost:3000, the sandbox on localhost:4010) are run; commands for
 * other addresses (a production URL, a second compose replica) show a reader's own setup and cannot run here.
 */
export function isDemoCommand(example: DocExample): boolean {
  return /(?:^|[\s"'/])(?:localhost|127\.0\.0\.1):(?:3000|4010)(?:[/"'\s]|$)/.test(example.command);
}

/** Everything wrong with an example today: its status, and its shape against the recorded output. */
export async function checkExample(demo: DocsDemo, example: DocExample): Promise<string[]> {
  if (!isDemoCommand(example)) return [];
  const response = await runExample(demo, example);
  const expected = expectedStatus(example);
  if (expected === undefined ? response.status >= 400 : response.status !== expected) {
    return [`${where(example)}: answered ${response.status} (${response.text.slice(0, 200)})`];
  }
  // Plain-text answers (metrics) and outputs marked check="status" (counters that depend on what ran before) are
  // checked for their status only; CSV keeps its header row.
  if (!example.output || example.output.language === 'text' || example.output.options.check === 'status') return [];
  const documented = documentedValue(example.output.language, example.output.text);
  return shapeMismatches(documented, bodyOf(response)).map((problem) => `${where(example)}: ${problem}`);
}

/** The marker's `status="…"`, or the status a documented problem JSON names; anything else is expected to succeed. */
function expectedStatus(example: DocExample): number | undefined {
  if (!example.output) return undefined;
  if (example.output.options.status !== undefined) return Number(example.output.options.status);
  if (!example.output.language.startsWith('json') || !example.output.text.trim()) return undefined;
  const value = documentedValue(example.output.language, example.output.text) as { status?: unknown; code?: unknown };
  return typeof value?.status === 'number' && typeof value.code === 'string' ? value.status : undefined;
}

export function where(example: DocExample): string {
  return `${example.file}:${example.line}`;
}
