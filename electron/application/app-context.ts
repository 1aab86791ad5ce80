/** What every labelling command opens: the data folder, the library database and the keychain. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Credentials, KeytarStore } from '../core/credentials/index.js';
import {
  acquireLibraryLock,
  describeHolder,
  type LibraryLock,
} from '../core/store/library-lock.js';
import { openLibraryStore } from '../core/store/open-library-store.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { labeldeskHome } from '../node-lib/app-paths.js';

export interface AppContext {
  home: string;
  env: NodeJS.ProcessEnv;
  store: LibraryStore;
  credentials: Credentials;
  close(): void;
}

export function openAppContext(
  env: NodeJS.ProcessEnv = process.env,
  options: { nativeBinding?: string | undefined } = {},
): AppContext {
  const home = labeldeskHome(env);
  mkdirSync(home, { recursive: true });
  const store = openLibraryStore(join(home, 'library.sqlite'), {
    nativeBinding: options.nativeBinding,
  });
  const credentials = new Credentials({ store: new KeytarStore(), env, settings: store.settings });
  return { home, env, store, credentials, close: () => store.close() };
}

/**
 * The library's write lock for a run: refused at once (LibraryBusyError, exit 4) while another run
 * holds it, or with `wait`, queued behind it with one line saying whom it waits for. Undefined when
 * interrupted while waiting.
 */
export async function lockLibraryForRun(
  app: AppContext,
  options: { command: string; wait: boolean; signal: AbortSignal; say: (line: string) => void },
): Promise<LibraryLock | undefined> {
  try {
    return await acquireLibraryLock(app.home, {
      command: options.command,
      waitMs: options.wait ? Number.POSITIVE_INFINITY : 0,
      signal: options.signal,
      onWait: (h) => options.say(`Waiting for ${h ? describeHolder(h) : 'another run'} to finish…`),
    });
  } catch (err) {
    if (options.signal.aborted) return undefined;
    throw err;
  }
}
