// The origins a browser may reach the server at: PUBLIC_URL alone for a public address; without PUBLIC_URL, or with
// a loopback one, also the loopback names of the same scheme and port (so the demo works at localhost and 127.0.0.1).
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { siteOriginsOf } from '../../src/config/site-origins.ts';

const origins = (env: Record<string, string>, machine = 'build-box') => siteOriginsOf(loadSettings({ DATA_DIR: '/tmp/x', ...env }), machine);

describe('siteOriginsOf', () => {
  it('the default (127.0.0.1:3000): its loopback names too', () => {
    expect(origins({})).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']);
  });

  it('listening on every interface without PUBLIC_URL: the machine name and the loopback names', () => {
    expect(origins({ HOST: '0.0.0.0', PORT: '8080' })).toEqual(['http://build-box:8080', 'http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']);
  });

  it('a loopback PUBLIC_URL (docker-compose): the same port at the other loopback names', () => {
    expect(origins({ PUBLIC_URL: 'http://localhost:3001/' })).toEqual(['http://localhost:3001', 'http://127.0.0.1:3001', 'http://[::1]:3001']);
  });

  it('a public PUBLIC_URL: that origin alone', () => {
    expect(origins({ PUBLIC_URL: 'https://siteline.example.com' })).toEqual(['https://siteline.example.com']);
    expect(origins({ PUBLIC_URL: 'http://siteline.test' })).toEqual(['http://siteline.test']);
  });
});
