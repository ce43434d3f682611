// `npm start`: load settings → build the runtime → serve; with nothing configured this is the embedded default
// (SQLite under ./data, in-process cache, the provider sandbox, a demo account, projects and API key).
import { loadSettings, SettingsError } from './config/settings.ts';
import { printBanner } from './demo/banner.ts';
import { installProcessGuard } from './observability/process-guard.ts';
import { drainAndExit, startServer, stopOnSignals } from './server.ts';
import { UnusableStoreError } from './store/unusable-store.ts';

try {
  const running = await startServer(loadSettings(process.env));
  stopOnSignals(running);
  installProcessGuard({ logger: running.runtime.logger, onEscape: running.runtime.metrics?.recordUnhandled, drainAndExit: (code) => drainAndExit(running, code) });
  printBanner(process.stdout, running);
} catch (error) {
  // Exit 2: the configuration or the machine needs a fix; restarting as is would fail the same way.
  if (error instanceof SettingsError || error instanceof UnusableStoreError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
