// Opens the store for one CLI command from the environment (DATABASE_URL / DATA_DIR), and closes it afterwards.
import { loadSettings } from '../config/settings.ts';
import type { Settings } from '../config/settings.ts';
import { openDatabase } from '../store/database.ts';
import type { Store } from '../store/database.ts';
import { createSecretBox, loadSecretKey } from '../store/secret-box.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { CliIO } from './cli-io.ts';

export interface CliContext {
  store: Store;
  settings: Settings;
  /** Loads (or, first time, generates) the secret key only when a command needs to encrypt. */
  secretBox(): SecretBox;
}

export async function withStore<T>(io: CliIO, fn: (context: CliContext) => Promise<T>): Promise<T> {
  const settings = loadSettings(io.env);
  const store = await openDatabase({ url: settings.DATABASE_URL, dataDir: settings.DATA_DIR });
  let box: SecretBox | undefined;
  try {
    return await fn({ store, settings, secretBox: () => (box ??= createSecretBox(loadSecretKey(settings))) });
  } finally {
    await store.close();
  }
}
