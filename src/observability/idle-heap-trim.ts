// Gives the heap a burst grew back to the operating system once the process has been idle a moment. V8 sizes its
// heap for the allocation rate it last saw and keeps it: its own memory reducer waits for a low allocation rate it
// never measures once a server simply stops receiving requests (measured: 480 MiB resident at rest after 10,000
// cold reports, with 85 MiB of it live). One memory-reducing full collection when idle returns the slack (tens of
// milliseconds for ~100 MiB of heap, and only while no request is waiting or being answered). Starting is such a burst too: the
// first idle period after start always collects, as what start-up leaves (its parser's garbage, the code of
// functions only start-up ran) is counted as used until a full collection (measured: 137 → 129 MiB idle).
import type { EventEmitter } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Logger } from '../logging/logger.ts';

export interface IdleHeapTrimOptions {
  /** Emits 'request' per request with its response, which emits 'close' once answered (the HTTP server). */
  server: Pick<EventEmitter, 'on' | 'off'>;
  logger: Pick<Logger, 'debug'>;
  /** A check every `idleMs`; a trim needs one whole period without a request (default 2 s). */
  idleMs?: number;
  /** Unused heap worth giving back (default 16 MiB). */
  minSlackBytes?: number;
  /** Tests: the collection and the slack it reads. */
  collect?: () => void;
  slackBytes?: () => number;
}

const MIB = 1024 * 1024;

/** Starts the checks; returns the stop function. Does nothing where no memory-reducing collection is available. */
export function startIdleHeapTrim(options: IdleHeapTrimOptions): () => void {
  const collect = options.collect ?? memoryReducingCollection();
  if (collect === undefined) return () => undefined;
  const slackBytes = options.slackBytes ?? heapSlackBytes;
  const minSlack = options.minSlackBytes ?? 16 * MIB;
  let requests = 0;
  // Requests still being answered: a heavy one (an insight over 50,000 search rows) can run for seconds without any
  // other arriving, and a full collection then would stop it, and all behind it, while its whole heap is compacted.
  let answering = 0;
  let busySinceTrim = true;
  let startedSinceTrim = true;
  const onRequest = (_request?: unknown, response?: Pick<EventEmitter, 'once'>) => {
    requests++;
    if (response === undefined) return;
    answering++;
    response.once('close', () => void answering--);
  };
  options.server.on('request', onRequest);
  const timer = setInterval(() => {
    if (requests > 0 || answering > 0) {
      requests = 0;
      busySinceTrim = true;
      return;
    }
    if (!busySinceTrim || (!startedSinceTrim && slackBytes() < minSlack)) return;
    busySinceTrim = false;
    startedSinceTrim = false;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    collect();
    options.logger.debug({ rssBeforeMiB: Math.round(before / MIB), rssAfterMiB: Math.round(process.memoryUsage.rss() / MIB), ms: Math.round(performance.now() - started) }, 'idle: heap trimmed');
  }, options.idleMs ?? 2_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    options.server.off('request', onRequest);
  };
}

function heapSlackBytes(): number {
  const heap = v8.getHeapStatistics();
  return heap.total_heap_size - heap.used_heap_size;
}

/**
 * V8's collection for memory pressure ("last resort": full, compacting, releasing freed pages), reached through
 * the gc extension of a fresh context: the flag is set for that moment only, so no code of the app sees a `gc`.
 */
function memoryReducingCollection(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as ((options: object) => void) | undefined;
    return gc === undefined ? undefined : () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    return undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
