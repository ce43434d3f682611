// The MCP tooling gates against a real listening server (ephemeral loopback port): the Inspector CLI lists
// and calls tools with an API key header, and the conformance suite's server scenarios pass, with an API key,
// except the documented baseline (conformance-baseline.yml). Neither tool needs the network.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningServer, type ListeningServer } from './listening-server.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'node_modules', '.bin');
const BASELINE = join(import.meta.dirname, 'conformance-baseline.yml');

async function exec(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(BIN, bin), args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe.skipIf(!existsSync(join(BIN, 'mcp-inspector')))('Inspector CLI (@modelcontextprotocol/inspector --cli)', () => {
  let server: ListeningServer;
  beforeAll(async () => {
    server = await startListeningServer();
  }, 60_000);
  afterAll(() => server.close());
  const inspect = (...args: string[]) => exec('mcp-inspector', ['--cli', server.url, '--transport', 'http', '--header', `Authorization: Bearer ${server.rt.demo.apiKey}`, ...args]);

  it('lists the tools', async () => {
    const { code, stdout, stderr } = await inspect('--method', 'tools/list');
    expect(code, stderr).toBe(0);
    const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_projects', 'get_site_summary', 'get_search_breakdown', 'create_funnel']));
  }, 60_000);

  it('gives no schema portability finding in strict mode', async () => {
    const { code, stderr } = await inspect('--method', 'tools/list', '--strict');
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/Warning|Error|portability/);
  }, 60_000);

  it('calls a tool, and reports a tool error with its exit code', async () => {
    const ok = await inspect('--method', 'tools/call', '--tool-name', 'get_project', '--tool-arg', 'project=acme-shop');
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { structuredContent: { project: { key: string } } }).structuredContent.project.key).toBe('acme-shop');
    const bad = await inspect('--method', 'tools/call', '--tool-name', 'get_project', '--tool-arg', 'project=nope');
    expect(bad.code).toBe(5);
    expect(bad.stdout).toContain("not_found: No project 'nope' is visible to you.");
  }, 60_000);

  it('exits with the auth code without a key', async () => {
    const { code } = await exec('mcp-inspector', ['--cli', server.url, '--transport', 'http', '--method', 'tools/list', '--stored-auth-only']);
    expect(code).toBe(3);
  }, 60_000);
});

describe.skipIf(!existsSync(join(BIN, 'conformance')))('conformance server scenarios (@modelcontextprotocol/conformance)', () => {
  let server: ListeningServer;
  beforeAll(async () => {
    // Server mode cannot send an Authorization header: the demo key is put on its requests on the way in, as
    // a client configured with it sends it (listening-server.ts); the endpoint authenticates it as usual.
    server = await startListeningServer({ withKey: true });
  }, 60_000);
  afterAll(() => server.close());

  it('passes every scenario outside the documented baseline (2025-11-25)', async () => {
    const { code, stdout, stderr } = await exec('conformance', ['server', '--url', server.url, '--spec-version', '2025-11-25', '--expected-failures', BASELINE]);
    expect(code, `${stdout.slice(-6000)}\n${stderr.slice(-2000)}`).toBe(0);
    for (const scenario of ['server-initialize', 'tools-list', 'ping', 'completion-complete', 'resources-list', 'prompts-list', 'dns-rebinding-protection']) {
      expect(stdout).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
  }, 90_000);
});
