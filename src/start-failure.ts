// What a failed start tells a person: a port that is taken or not allowed is a sentence naming the setting to
// change, not a stack trace.
import type { Settings } from './config/settings.ts';

interface ListenError {
  code?: unknown;
  port?: unknown;
  address?: unknown;
}

/** The one-line explanation of a listen failure, or undefined for anything else (which keeps its stack). */
export function startFailureMessage(error: unknown, settings: Settings | undefined): string | undefined {
  const { code, port, address } = (error ?? {}) as ListenError;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') return undefined;
  const setting = port === settings?.SANDBOX_PORT ? 'SANDBOX_PORT' : port === settings?.METRICS_PORT ? 'METRICS_PORT' : 'PORT';
  const where = `${String(address ?? settings?.HOST ?? '')}:${String(port)}`;
  return code === 'EADDRINUSE'
    ? `Cannot listen on ${where}: the port is already in use (is another Siteline still running?). Stop that process or set ${setting} to a free port.`
    : `Cannot listen on ${where}: not allowed (ports below 1024 need extra privileges). Set ${setting} to a port above 1023.`;
}
