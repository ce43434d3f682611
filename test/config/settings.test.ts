// Settings: defaults for the embedded start, and every problem of a bad environment listed at once.
import { describe, expect, it } from 'vitest';
import { loadSettings, publicUrlOf, SettingsError } from '../../src/config/settings.ts';

describe('loadSettings', () => {
  it('gives the embedded default with nothing configured', () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data', SITELINE_SANDBOX: 'auto', SANDBOX_PORT: 4010, LOG_LEVEL: 'info', METRICS_ENABLED: true });
    expect(settings.DATABASE_URL).toBeUndefined();
    expect(settings.REDIS_URL).toBeUndefined();
    expect(publicUrlOf(settings)).toBe('http://127.0.0.1:3000');
  });

  it('derives PUBLIC_URL from the machine\'s host name when HOST listens on every interface', () => {
    expect(publicUrlOf(loadSettings({ HOST: '0.0.0.0', PORT: '8080' }), 'build-box.lan')).toBe('http://build-box.lan:8080');
    expect(publicUrlOf(loadSettings({ HOST: '::' }), 'Build-Box')).toBe('http://build-box:3000');
    expect(publicUrlOf(loadSettings({ HOST: '::1' }), 'build-box')).toBe('http://[::1]:3000');
    expect(publicUrlOf(loadSettings({ HOST: '10.0.0.5' }), 'build-box')).toBe('http://10.0.0.5:3000');
    // A host name that cannot be a URL host (or none at all) falls back to the loopback address.
    expect(publicUrlOf(loadSettings({ HOST: '0.0.0.0' }), 'bad host_name!')).toBe('http://127.0.0.1:3000');
    expect(publicUrlOf(loadSettings({ HOST: '0.0.0.0' }), '')).toBe('http://127.0.0.1:3000');
    expect(publicUrlOf(loadSettings({ HOST: '0.0.0.0', PUBLIC_URL: 'https://siteline.example.com' }), 'build-box')).toBe('https://siteline.example.com');
  });

  it('treats empty variables as unset and coerces numbers and booleans', () => {
    const settings = loadSettings({ PORT: '8080', REDIS_URL: '', METRICS_ENABLED: 'off', PUBLIC_URL: 'https://api.example.com/' });
    expect(settings.PORT).toBe(8080);
    expect(settings.REDIS_URL).toBeUndefined();
    expect(settings.METRICS_ENABLED).toBe(false);
    expect(publicUrlOf(settings)).toBe('https://api.example.com');
  });

  it('keeps the demo sandbox off in a production-shaped setup unless asked for', () => {
    expect(loadSettings({ DATABASE_URL: 'postgres://db/siteline' }).SITELINE_SANDBOX).toBe('off');
    expect(loadSettings({ PUBLIC_URL: 'https://siteline.example.com' }).SITELINE_SANDBOX).toBe('off');
    expect(loadSettings({ DATABASE_URL: 'postgres://db/siteline', SITELINE_SANDBOX: 'auto' }).SITELINE_SANDBOX).toBe('auto');
    expect(loadSettings({ PUBLIC_URL: 'http://localhost:3000' }).SITELINE_SANDBOX).toBe('auto');
  });

  it('lists every problem, naming each variable', () => {
    try {
      loadSettings({ PORT: 'eighty', PUBLIC_URL: 'ftp://x', LOG_LEVEL: 'loud', SITELINE_SANDBOX: 'maybe', SITELINE_SECRET_KEY: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsError);
      const problems = (error as SettingsError).problems.join('\n');
      for (const name of ['PORT', 'PUBLIC_URL', 'LOG_LEVEL', 'SITELINE_SANDBOX', 'SITELINE_SECRET_KEY']) expect(problems).toContain(`${name}:`);
      expect((error as SettingsError).problems).toHaveLength(5);
    }
  });
});
