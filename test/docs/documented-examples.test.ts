// No drift between the docs and the service: every curl in the README and docs/ runs against the in-process demo
// and must answer with the documented status and the shape of its recorded output; the README stays a short front
// door that lists every setting; no document points at files a reader does not have.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docFiles, readDoc, ROOT } from '../../scripts/docs/doc-files.ts';
import { createDocsDemo, type DocsDemo } from '../../scripts/docs/docs-demo.ts';
import { findExamples } from '../../scripts/docs/markdown-examples.ts';
import { checkExample } from '../../scripts/docs/run-example.ts';
import { settingsSchema } from '../../src/config/settings.ts';
import { runSiteline } from '../cli/run.ts';

const files = (await docFiles()).filter((file) => existsSync(join(ROOT, file)));
const docs = new Map(await Promise.all(files.map(async (file) => [file, await readDoc(file)] as const)));
const readme = docs.get('README.md')!;

let demo: DocsDemo;
beforeAll(async () => {
  demo = await createDocsDemo();
});
afterAll(() => demo.dispose());

describe('documented examples', () => {
  it.each(files.filter((file) => findExamples(file, docs.get(file)!).length > 0))('%s: every curl answers as documented', async (file) => {
    const problems: string[] = [];
    try {
      for (const example of findExamples(file, docs.get(file)!)) problems.push(...(await checkExample(demo, example)));
    } finally {
      // A page may switch sandbox faults on to show them; the next page starts from a healthy sandbox.
      demo.runtime.sandbox.clearFaults();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it('the README tour shows recorded output for each of its calls', () => {
    const tour = readme.slice(readme.indexOf('## A two-minute tour'), readme.indexOf('## Connect an AI client'));
    const examples = findExamples('README.md', tour);
    const paths = examples.map((e) => /localhost:3000(\/[^"'?\s]*)/.exec(e.command)?.[1]?.split('/').slice(0, 4).join('/'));
    expect(paths).toEqual(['/api/v1/projects', '/api/v1/metrics', '/api/v1/metrics', '/api/v1/metrics', '/api/mcp', '/api/graphql']);
    for (const example of examples) expect(example.output?.text.trim(), example.command).toBeTruthy();
  });
});

describe('the README', () => {
  it('stays a front door of at most 12 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
  });

  it('lists every setting in its configuration table', () => {
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Production checklist'));
    const documented = [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(settingsSchema.shape).sort());
  });
});

describe('every document', () => {
  it.each(files)('%s names no file or note a reader does not have', (file) => {
    const text = docs.get(file)!;
    expect(text).not.toMatch(/\bSPEC\b|mcp-notes|\bissue[- ]?#?\d+/i);
    // The only HTML comments are the recorder's output markers.
    expect(text.match(/<!--(?! output| \/output)[\s\S]*?-->/g) ?? []).toEqual([]);
    const missing = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => join(dirname(file), target).replace(/\/$/, ''))
      .filter((target) => !existsSync(join(ROOT, target)));
    expect(missing).toEqual([]);
  });
});

describe('docs/dependencies.md', () => {
  it('gives a reason for every package in package.json', async () => {
    const pkg = JSON.parse(await readDoc('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const page = docs.get('docs/dependencies.md')!;
    const unexplained = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((name) => !page.includes(`\`${name}\``));
    expect(unexplained).toEqual([]);
  });
});

describe('documented siteline commands', () => {
  /** `siteline <command> [<subcommand>]` of every shell block line that runs the CLI. */
  const commands = [...new Set([...docs.values()].flatMap((text) =>
    [...text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].flatMap((block) =>
      block[1]!.split('\n').flatMap((line) => {
        const words = /^(?:npx )?siteline\s+(.*)$/.exec(line.trim())?.[1]?.split(/\s+/) ?? [];
        return words.length ? [words.slice(0, words[1] && !words[1].startsWith('-') && !words[1].startsWith('[') ? 2 : 1).join(' ')] : [];
      }),
    ),
  ))];

  it.each(commands)('siteline %s exists', async (command) => {
    const { code, stderr } = await runSiteline([...command.split(' '), '--help'], {});
    expect(code, stderr).toBe(0);
  });
});
