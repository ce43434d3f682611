// `npm start` and `siteline serve`: start the server, print the banner, drain on signals, and guard the process
// against errors nothing owned. A configuration or store the machine cannot run is one line and exit code 2.
import { loadSettings, SettingsError } from './config/settings.ts';
import { printBanner } from './demo/banner.ts';
import { installProcessGuard } from './observability/process-guard.ts';
import { drainAndExit, startServer, stopOnSignals } from './server.ts';
import { UnusableStoreError } from './store/unusable-store.ts';

interface Output {
  write(chunk: string): unknown;
}

/** Resolves once serving (undefined), or with the exit code when the service cannot start as configured. */
export async function runService(env: NodeJS.ProcessEnv, stdout: Output, stderr: Output): Promise<number | undefined> {
  try {
    const running = await startServer(loadSettings(env));
    stopOnSignals(running);
    installProcessGuard({ logger: running.runtime.logger, onEscape: running.runtime.metrics?.recordUnhandled, drainAndExit: (code) => drainAndExit(running, code) });
    printBanner(stdout, running);
    return undefined;
  } catch (error) {
    // Exit 2: the configuration or the machine needs a fix; restarting as is would fail the same way.
    if (error instanceof SettingsError || error instanceof UnusableStoreError) {
      stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
