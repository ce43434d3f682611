// On a Node too old to load `.ts` files, the CLI and the npm scripts say what to do instead of failing with
// ERR_UNKNOWN_FILE_EXTENSION. Run with the machine's own old Node when there is one.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript module without types (it must run on any Node)
import { nodeVersionProblem } from '../../bin/require-node.mjs';

const root = resolve(import.meta.dirname, '../..');
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  if (!existsSync(path)) return false;
  const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  return (nodeVersionProblem as (v: string) => string | undefined)(version) !== undefined;
});
const EXPECTED = /^Siteline needs Node 22\.18\+ or 24; you have v20\.\d+\.\d+ — run `source \.ci\/setup-node` \(in a checkout\) or install Node 24/;

describe('the Node version check', () => {
  it('accepts 22.18+, 23.6+ and 24+, and names the version it refuses', () => {
    const problem = nodeVersionProblem as (v: string) => string | undefined;
    expect(['22.18.0', 'v22.20.1', '23.6.0', '24.0.0', '25.1.0'].map(problem)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(problem('v22.17.9')).toContain('you have v22.17.9');
    expect(problem('20.20.2')).toContain('you have v20.20.2');
  });

  it('stays silent on this Node', () => {
    const run = spawnSync(process.execPath, [resolve(root, 'bin/require-node.mjs')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  describe.skipIf(oldNode === undefined)(`with the machine's old Node (${oldNode})`, () => {
    const env = { ...process.env, PATH: `/usr/bin:/bin` };

    it('the siteline command says what to do, exit 1, no stack', () => {
      const run = spawnSync(oldNode!, [resolve(root, 'bin/siteline.mjs'), '--version'], { encoding: 'utf8', env });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(EXPECTED);
      expect(run.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
    });

    it.each(['start', 'test'])('npm %s says what to do before any .ts file is loaded', (script) => {
      const run = spawnSync('/usr/bin/npm', [script, '--silent'], { cwd: root, encoding: 'utf8', env });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(new RegExp(EXPECTED.source, 'm'));
      expect(`${run.stdout}${run.stderr}`).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
    });
  });
});
