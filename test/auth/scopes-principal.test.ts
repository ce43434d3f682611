import { describe, expect, it } from 'vitest';
import { requireScope } from '../../src/auth/principal.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { formatScopes, parseScopes } from '../../src/auth/scopes.ts';
import { expectAppError } from '../domain/expect-app-error.ts';

const principal = (overrides: Partial<Principal> = {}): Principal => ({
  kind: 'api_key',
  accountId: 'acct_1',
  credentialId: 'key_1',
  scopes: new Set(['read']),
  projectKeys: null,
  ...overrides,
});

describe('scopes', () => {
  it('parses lists and strings into canonical, deduplicated order', () => {
    expect(parseScopes('mcp:write,read read')).toEqual(['read', 'mcp:write']);
    expect(parseScopes(['raw', 'read'])).toEqual(['read', 'raw']);
    expect(formatScopes(new Set(['raw', 'read'] as const))).toBe('read raw');
  });

  it('rejects unknown and empty scopes, quoting them', () => {
    expectAppError(() => parseScopes('read,admin'), { code: 'invalid_parameter', param: 'scopes', includes: ["'admin'"] });
    expectAppError(() => parseScopes(''), { code: 'invalid_parameter', param: 'scopes' });
  });
});

describe('principal guards', () => {
  it('requireScope passes with the scope and throws 403 naming it otherwise', () => {
    expect(() => requireScope(principal(), 'read')).not.toThrow();
    const error = expectAppError(() => requireScope(principal(), 'raw'), { code: 'insufficient_scope', status: 403 });
    expect(error.headers['WWW-Authenticate']).toBe('Bearer realm="siteline", error="insufficient_scope", scope="raw"');
  });
});
