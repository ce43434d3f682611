// `npm start` and `siteline serve`: start the server, print the banner, drain on signals, and guard the process
// against errors nothing owned. A configuration or store the machine cannot run is one line and exit code 2.
import { loadSettings, SettingsError, type Settings } from './config/settings.ts';
import { printBanner } from './demo/banner.ts';
import { startIdleHeapTrim } from './observability/idle-heap-trim.ts';
import { installProcessGuard } from './observability/process-guard.ts';
import { drainAndExit, startServer, stopOnSignals } from './server.ts';
import { startFailureMessage } from './start-failure.ts';
import { UnusableStoreError } from './store/unusable-store.ts';

interface Output {
  write(chunk: string): unknown;
}

/** Resolves once serving (undefined), or with the exit code when the service cannot start as configured. */
export async function runService(env: NodeJS.ProcessEnv, stdout: Output, stderr: Output): Promise<number | undefined> {
  let settings: Settings | undefined;
  try {
    settings = loadSettings(env);
    const running = await startServer(settings);
    stopOnSignals(running);
    if (running.httpServer) startIdleHeapTrim({ server: running.httpServer, logger: running.runtime.logger });
    installProcessGuard({ logger: running.runtime.logger, onEscape: running.runtime.metrics?.recordUnhandled, drainAndExit: (code) => drainAndExit(running, code) });
    printBanner(stdout, running);
    return undefined;
  } catch (error) {
    // Exit 2: the configuration or the machine needs a fix; restarting as is would fail the same way.
    if (error instanceof SettingsError || error instanceof UnusableStoreError) {
      stderr.write(`${error.message}\n`);
      return 2;
    }
    // Exit 1: a port taken or not allowed is usually passing (another instance still running).
    const listenMessage = startFailureMessage(error, settings);
    if (listenMessage === undefined) throw error;
    stderr.write(`${listenMessage}\n`);
    return 1;
  }
}
