// The last line of defence: an error nothing owned (an 'error' event without a listener, a promise nobody
// awaited) is logged and counted instead of ending the process, so one stray failure cannot take every request
// of the replica with it. Only an error saying in-process state is corrupt ends the process — after draining,
// so the supervisor restarts a clean one.
import type { Logger } from '../logging/logger.ts';

/** Thrown (out of band) when an in-process invariant is broken and the process can no longer be trusted. */
export class CorruptStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptStateError';
  }
}

export type EscapeKind = 'exception' | 'rejection';

export interface ProcessGuardOptions {
  logger: Pick<Logger, 'error' | 'fatal'>;
  /** Counts each escape (the `siteline_unhandled_errors_total` metric). */
  onEscape?: (kind: EscapeKind) => void;
  /** Drains and exits; called once, for a CorruptStateError. */
  drainAndExit: (code: number) => void;
  /** The process to guard (tests pass an EventEmitter). */
  target?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/** Installs the guard; returns the uninstaller. */
export function installProcessGuard(options: ProcessGuardOptions): () => void {
  const target = options.target ?? process;
  let exiting = false;
  const handle = (kind: EscapeKind) => (error: unknown) => {
    options.onEscape?.(kind);
    if (error instanceof CorruptStateError) {
      options.logger.fatal({ err: error, kind }, 'in-process state is corrupt: draining, then exiting for a restart');
      if (!exiting) options.drainAndExit(70);
      exiting = true;
      return;
    }
    options.logger.error({ err: error, kind }, 'unhandled error caught by the process guard; still serving');
  };
  const onException = handle('exception');
  const onRejection = handle('rejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
