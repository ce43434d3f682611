// pino JSON logs with secrets redacted: tokens, keys, passwords and credential blobs never reach a log line.
import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths pino censors wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.authorization',
  'apiKey',
  '*.apiKey',
  'apikey',
  '*.apikey',
  'key',
  'password',
  '*.password',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'refresh_token',
  '*.refresh_token',
  'client_secret',
  '*.client_secret',
  'private_key',
  '*.private_key',
  'credential',
  '*.credential',
];

export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'siteline' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination as never,
  );
}

/** A logger that discards everything (tests, CLI commands). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
