/** What every labelling command opens: the data folder, the library database and the keychain. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Credentials, KeytarStore } from '../core/credentials/index.js';
import { openLibraryStore } from '../core/store/open-library-store.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { labeldeskHome } from '../node-lib/app-paths.js';

export interface AppContext {
  home: string;
  store: LibraryStore;
  credentials: Credentials;
  close(): void;
}

export function openAppContext(env: NodeJS.ProcessEnv = process.env): AppContext {
  const home = labeldeskHome(env);
  mkdirSync(home, { recursive: true });
  const store = openLibraryStore(join(home, 'library.sqlite'));
  const credentials = new Credentials({ store: new KeytarStore(), env, settings: store.settings });
  return { home, store, credentials, close: () => store.close() };
}
