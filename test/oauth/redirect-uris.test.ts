// The redirect-URI policy: what may be registered, and how a presented URI matches (exact; loopback any port).
import { describe, expect, it } from 'vitest';
import { formActionSourceOf, matchRedirectUri, redirectTargetLabel, redirectUriProblem } from '../../src/auth/oauth/redirect-uris.ts';

describe('redirectUriProblem', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://chatgpt.com/connector_platform_oauth_redirect',
    'https://vscode.dev/redirect',
    'cursor://anysphere.cursor-mcp/oauth/callback',
    'vscode://vscode.github-authentication/did-authenticate',
    'http://127.0.0.1/',
    'http://127.0.0.1:33418/',
    'http://localhost:8787/callback',
    'http://[::1]:6274/oauth/callback',
    'com.example.app:/oauth/callback',
  ])('allows %s', (uri) => expect(redirectUriProblem(uri)).toBeUndefined());

  it.each([
    ['http://example.com/cb', /non-loopback/],
    ['http://127.0.0.1.evil.example/cb', /non-loopback/],
    ['javascript:alert(1)', /scheme 'javascript:'/],
    ['data:text/html,x', /scheme 'data:'/],
    ['file:///etc/passwd', /scheme 'file:'/],
    ['https://a.example/cb#x', /fragment/],
    ['https://user:pw@a.example/cb', /credentials/],
    ['not a uri', /absolute/],
    ['search-ms:query=invoice&crumb=location:%5C%5Cattacker.example%5Cshare', /neither reverse-domain/],
    ['ms-settings:privacy', /neither reverse-domain/],
  ])('refuses %s', (uri, reason) => expect(redirectUriProblem(uri)).toMatch(reason));
});

describe('matchRedirectUri', () => {
  const registered = ['http://127.0.0.1:33418/', 'http://localhost:8787/callback', 'https://vscode.dev/redirect', 'cursor://anysphere.cursor-mcp/oauth/callback'];

  it('matches exactly', () => {
    for (const uri of registered) expect(matchRedirectUri(registered, uri)).toBe(uri);
  });

  it('accepts a loopback URI on another port (RFC 8252 §7.3) and returns the presented one', () => {
    expect(matchRedirectUri(registered, 'http://127.0.0.1:50123/')).toBe('http://127.0.0.1:50123/');
    expect(matchRedirectUri(registered, 'http://localhost:9999/callback')).toBe('http://localhost:9999/callback');
  });

  it('refuses a different loopback path or host, other https URLs, and port tricks on non-loopback URIs', () => {
    expect(matchRedirectUri(registered, 'http://127.0.0.1:50123/other')).toBeUndefined();
    expect(matchRedirectUri(registered, 'http://localhost:9999/')).toBeUndefined();
    expect(matchRedirectUri(registered, 'https://vscode.dev:8443/redirect')).toBeUndefined();
    expect(matchRedirectUri(registered, 'https://vscode.dev/redirect/')).toBeUndefined();
    expect(matchRedirectUri(registered, 'cursor://anysphere.cursor-mcp/oauth/callback?x=1')).toBeUndefined();
  });
});

describe('consent-screen helpers', () => {
  it('labels the place the user returns to, and the CSP form-action source allowing that redirect', () => {
    expect(redirectTargetLabel('https://claude.ai/api/mcp/auth_callback')).toBe('claude.ai');
    expect(redirectTargetLabel('cursor://anysphere.cursor-mcp/oauth/callback')).toBe('cursor://anysphere.cursor-mcp');
    expect(formActionSourceOf('http://127.0.0.1:4000/cb')).toBe('http://127.0.0.1:4000');
    expect(formActionSourceOf('cursor://anysphere.cursor-mcp/oauth/callback')).toBe('cursor:');
  });
});
