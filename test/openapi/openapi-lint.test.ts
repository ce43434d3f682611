// The OpenAPI document passes Redocly's recommended rules and Spectral's spectral:oas ruleset with no warning
// at all, both run offline against the document the app serves.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/build-document.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'node_modules', '.bin');
let dir: string;
let documentPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'siteline-oas-lint-'));
  documentPath = join(dir, 'openapi.json');
  await writeFile(documentPath, JSON.stringify(buildOpenApiDocument({ routes: REST_ROUTES, publicUrl: 'https://siteline.acme-shop.test' })));
  await writeFile(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function lint(bin: string, args: string[]): Promise<{ code: number; output: string }> {
  // Offline: no telemetry, no update check, no remote rulesets.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };
  try {
    const { stdout, stderr } = await run(join(BIN, bin), args, { cwd: dir, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}\n${failed.stderr ?? ''}` };
  }
}

describe('OpenAPI lint', () => {
  it('redocly lint (recommended rules): valid, no warnings', async () => {
    const { code, output } = await lint('redocly', ['lint', documentPath, '--format', 'stylish']);
    expect(code, output).toBe(0);
    expect(output, output).not.toMatch(/warning/i);
  }, 150_000);

  it("spectral lint (spectral:oas): no problems", async () => {
    const { code, output } = await lint('spectral', ['lint', '--ruleset', join(dir, '.spectral.yaml'), '--fail-severity', 'hint', documentPath]);
    expect(code, output).toBe(0);
    expect(output, output).toMatch(/No results with a severity of 'hint' or higher found!/);
  }, 150_000);
});
