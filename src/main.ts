// `npm start`: load settings → build the runtime → serve; with nothing configured this is the embedded default
// (SQLite under ./data, in-process cache, the provider sandbox, a demo account, projects and API key).
import { loadSettings, SettingsError, type Settings } from './config/settings.ts';
import { printBanner } from './demo/banner.ts';
import { startServer, stopOnSignals } from './server.ts';
import { startFailureMessage } from './start-failure.ts';

let settings: Settings | undefined;
try {
  settings = loadSettings(process.env);
  const running = await startServer(settings);
  stopOnSignals(running);
  printBanner(process.stdout, running);
} catch (error) {
  if (error instanceof SettingsError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const message = startFailureMessage(error, settings);
  if (message === undefined) throw error;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
