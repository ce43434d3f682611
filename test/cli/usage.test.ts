import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/cli/commands/keys.ts';
import { parseStep } from '../../src/cli/commands/funnels.ts';
import { UsageError } from '../../src/cli/output.ts';
import { thrownBy } from '../domain/expect-app-error.ts';
import { runSiteline } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: dir };

describe('CLI usage', () => {
  it.each(['accounts', 'keys', 'projects', 'funnels'])('%s --help lists its subcommands and exits 0', async (command) => {
    const result = await runSiteline([command, '--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`siteline ${command} \\w+`));
  });

  it('prints one subcommand’s usage for --help', async () => {
    const result = await runSiteline(['keys', 'rotate', '--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: siteline keys rotate .*--grace/);
  });

  it('exits 2 with usage on unknown subcommands, unknown flags and missing options', async () => {
    for (const args of [['keys', 'explode'], ['accounts', 'create', '--emial', 'x'], ['accounts', 'create', '--name', 'X'], ['keys']]) {
      const result = await runSiteline(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/usage/);
    }
  });

  it('reports configuration problems with exit 2', async () => {
    const result = await runSiteline(['accounts', 'list'], { DATA_DIR: dir, SITELINE_SECRET_KEY: 'short' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/SITELINE_SECRET_KEY/);
  });

  it('parses durations and steps', () => {
    expect(parseDuration('24h', '--grace')).toBe(86_400_000);
    expect(parseDuration('90s', '--grace')).toBe(90_000);
    const duration = thrownBy(() => parseDuration('1y', '--grace'));
    expect(duration).toBeInstanceOf(UsageError);
    expect((duration as UsageError).message).toBe("--grace '1y' is not a duration like 90s, 15m, 24h, 30d or 2w");
    expect(parseStep('page:regex:^/a:b$')).toEqual({ name: '', type: 'page', match: 'regex', value: '^/a:b$' });
    expect(parseStep('Sign up=event:exact:sign_up')).toEqual({ name: 'Sign up', type: 'event', match: 'exact', value: 'sign_up' });
    const step = thrownBy(() => parseStep('event:fuzzy:x'));
    expect(step).toBeInstanceOf(UsageError);
    expect((step as UsageError).message).toContain("--step 'event:fuzzy:x'");
  });
});
