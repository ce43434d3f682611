// `siteline --version`, and errors as JSON when the command line says --json (same exit codes as the text).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSiteline } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cli-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: dir };
const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };

interface ErrorBody {
  error: { code: string; message: string; param?: string; problems?: string[] };
}

describe('siteline --version', () => {
  it('prints the package version and the Node version, as text or JSON', async () => {
    const text = await runSiteline(['--version'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`siteline ${version} (node ${process.versions.node})\n`);
    const json = await runSiteline(['--version', '--json'], env);
    expect(json.json()).toEqual({ version, node: process.versions.node });
    expect((await runSiteline(['-V'], env)).stdout).toContain(version);
  });
});

describe('errors with --json', () => {
  const jsonError = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const result = await runSiteline(args, { ...env, ...extraEnv });
    expect(result.stdout, args.join(' ')).toBe('');
    return { code: result.code, body: JSON.parse(result.stderr) as ErrorBody };
  };

  it('usage errors: exit 2 and {"error": {"code": "usage_error"}}', async () => {
    for (const args of [['accounts', 'create', '--name', 'X', '--json'], ['accounts', 'create', '--emial', 'x', '--json'], ['keys', 'explode', '--json'], ['explode', '--json']]) {
      const { code, body } = await jsonError(args);
      expect(code, args.join(' ')).toBe(2);
      expect(body.error.code, args.join(' ')).toBe('usage_error');
      expect(body.error.message.length).toBeGreaterThan(0);
    }
  });

  it('domain errors: exit 1 with the code and the parameter', async () => {
    const { code, body } = await jsonError(['accounts', 'create', '--email', 'not-an-email', '--name', 'X', '--json']);
    expect(code).toBe(1);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'email' });
    const missing = await jsonError(['accounts', 'set-password', '--email', 'nobody@example.com', '--password', 'long enough pw', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('configuration errors: exit 2 with every problem listed', async () => {
    const { code, body } = await jsonError(['accounts', 'list', '--json'], { SITELINE_SECRET_KEY: 'short' });
    expect(code).toBe(2);
    expect(body.error.code).toBe('invalid_configuration');
    expect(body.error.problems?.some((p) => p.startsWith('SITELINE_SECRET_KEY'))).toBe(true);
  });

  it('without --json the same errors stay plain text', async () => {
    const result = await runSiteline(['accounts', 'create', '--email', 'not-an-email', '--name', 'X'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: /);
  });
});
