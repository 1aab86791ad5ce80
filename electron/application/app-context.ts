/** What every labelling command opens: the data folder, the library database and the keychain. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { privateCopy, readOnlyReason } from './read-only-home.js';
import { Credentials, KeytarStore } from '../core/credentials/index.js';
import {
  acquireLibraryLock,
  describeHolder,
  type LibraryLock,
} from '../core/store/library-lock.js';
import { openLibraryStore } from '../core/review/open-library-store.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { labeldeskHome } from '../node-lib/app-paths.js';

export type { LibraryLock };
/** Opening or locking the library fails with these: another writer holds it, or it is damaged. */
export { LibraryBusyError } from '../core/store/library-lock.js';
export { isDamagedDatabase, LibraryDamagedError } from '../core/store/store-error.js';

export interface AppContext {
  home: string;
  /** Where this process writes: `home`, or a private copy of it when the library is read-only. */
  workHome: string;
  /** Why the library cannot be written (a read-only share or home), or null. */
  readOnly: string | null;
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
  const readOnly = readOnlyReason(home);
  const work = readOnly ? privateCopy(home) : { dir: home, remove: () => undefined };
  let store: LibraryStore;
  try {
    store = openLibraryStore(join(work.dir, 'library.sqlite'), {
      nativeBinding: options.nativeBinding,
    });
  } catch (err) {
    work.remove();
    throw err;
  }
  const credentials = new Credentials({ store: new KeytarStore(), env, settings: store.settings });
  const close = () => {
    store.close();
    work.remove();
  };
  return { home, workHome: work.dir, readOnly, env, store, credentials, close };
}

/** The library's write lock, refused at once (LibraryBusyError) while another process holds it. */
export function lockLibrary(app: AppContext, command: string): Promise<LibraryLock> {
  return acquireLibraryLock(app.home, { command });
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
