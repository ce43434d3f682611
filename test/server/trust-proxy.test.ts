// TRUST_PROXY: only listed proxies (addresses, CIDR ranges, or loopback) may name the client's address through
// X-Forwarded-For; `true`, which let any client pick its own address, is refused at start with what to write.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../src/config/settings.ts';
import { clientIpOf } from '../../src/http/client-ip.ts';
import { createProxyMatcher } from '../../src/http/trusted-proxies.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createRuntime } from '../../src/runtime.ts';
import { serveRuntime } from '../../src/server.ts';

const base = { SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent' };

function settingsError(env: Record<string, string>): SettingsError {
  try {
    loadSettings({ ...base, ...env });
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('loadSettings accepted the value');
}

describe('TRUST_PROXY setting', () => {
  it('parses false, loopback and lists of addresses and CIDR ranges', () => {
    expect(loadSettings(base).TRUST_PROXY).toBe(false);
    expect(loadSettings({ ...base, TRUST_PROXY: 'loopback' }).TRUST_PROXY).toBe('loopback');
    expect(loadSettings({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
  });

  it('refuses true with a message that says what to write instead, and names bad entries', () => {
    const refused = settingsError({ TRUST_PROXY: 'true' });
    expect(refused.problems).toHaveLength(1);
    expect(refused.problems[0]).toContain('TRUST_PROXY');
    expect(refused.problems[0]).toContain('CIDR');
    expect(refused.problems[0]).toContain('loopback');
    const bad = settingsError({ TRUST_PROXY: '10.0.0.0/8,proxy.internal,10.0.0.0/40' });
    expect(bad.problems.map((p) => p.split(': ')[1])).toEqual(["'proxy.internal' is not an IP address or CIDR range", "'10.0.0.0/40' has a prefix longer than the address"]);
  });

  it('matches addresses, ranges and IPv4-mapped IPv6 peers', () => {
    const matches = createProxyMatcher(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
    expect(['10.1.2.3', '::ffff:10.9.9.9', '192.168.1.5', 'fd12::1'].map(matches)).toEqual([true, true, true, true]);
    expect(['11.0.0.1', '192.168.1.6', 'fe80::1', 'not-an-ip'].map(matches)).toEqual([false, false, false, false]);
  });
});

async function clientIpsSeenBy(trustProxy: string, forwardedFor: string[]): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'siteline-proxy-'));
  const settings = loadSettings({ ...base, DATA_DIR: dataDir, PORT: '0', TRUST_PROXY: trustProxy, SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
  const runtime = await createRuntime(settings, { logger: silentLogger(), skipDemo: true });
  runtime.app.get('/__test/ip', (event) => ({ ip: clientIpOf(event) }));
  const running = await serveRuntime(runtime, settings);
  try {
    const url = `${running.url.replace(/\/+$/, '')}/__test/ip`;
    const seen: string[] = [];
    for (const header of forwardedFor) seen.push(((await (await fetch(url, { headers: { 'x-forwarded-for': header } })).json()) as { ip: string }).ip);
    return seen;
  } finally {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('client address behind a proxy (real server, requests from 127.0.0.1)', () => {
  it('from a trusted range: the nearest untrusted hop, never an address the client wrote further left', async () => {
    const seen = await clientIpsSeenBy('127.0.0.0/8,10.0.0.0/8', ['203.0.113.5', '6.6.6.6, 203.0.113.5', '6.6.6.6, 203.0.113.5, 10.1.1.1']);
    expect(seen).toEqual(['203.0.113.5', '203.0.113.5', '203.0.113.5']);
  });

  it('from a peer that is not listed: the header is ignored', async () => {
    const seen = await clientIpsSeenBy('10.0.0.0/8', ['203.0.113.5']);
    expect(seen[0]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });
});
