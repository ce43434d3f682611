// Opens the store for one CLI command from the environment (DATABASE_URL / DATA_DIR), and closes it afterwards;
// a command that changed the catalogue tells running servers through Redis.
import { loadSettings } from '../config/settings.ts';
import type { Settings } from '../config/settings.ts';
import { openDatabase } from '../store/database.ts';
import { watchCatalogueWrites } from '../store/write-watch.ts';
import { announceCatalogueChange } from './announce-revocation.ts';
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
  let changed: string | undefined;
  const store = watchCatalogueWrites(await openDatabase({ url: settings.DATABASE_URL, dataDir: settings.DATA_DIR }), ({ table }) => (changed ??= table));
  let box: SecretBox | undefined;
  try {
    return await fn({ store, settings, secretBox: () => (box ??= createSecretBox(loadSecretKey(settings))) });
  } finally {
    await store.close();
    // Running servers would otherwise answer from their caches for up to 30 s.
    if (changed !== undefined) await announceCatalogueChange(settings, changed);
  }
}
