// Logs are JSON and never carry secrets: authorization headers, keys, tokens, passwords and credentials are censored.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('createLogger', () => {
  it('writes JSON lines with the service name', () => {
    const { lines, logger } = capture();
    logger.info({ requestId: 'r-1' }, 'hello');
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ service: 'siteline', requestId: 'r-1', msg: 'hello', level: 30 });
    expect(typeof entry.time).toBe('string');
  });

  it('redacts secrets wherever they appear', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        authorization: 'Bearer sl_live_secretsecret',
        req: { headers: { authorization: 'Bearer abc', cookie: 'session=1' } },
        apiKey: 'sl_live_AAAA',
        source: { refresh_token: '1//refresh', client_secret: 'GOCSPX-x', private_key: '-----BEGIN PRIVATE KEY-----' },
        account: { password: 'hunter22' },
      },
      'request',
    );
    const text = lines.join('');
    for (const secret of ['sl_live_secretsecret', 'Bearer abc', 'session=1', 'sl_live_AAAA', '1//refresh', 'GOCSPX-x', 'BEGIN PRIVATE KEY', 'hunter22']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});
