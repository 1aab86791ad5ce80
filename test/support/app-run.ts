/**
 * An application-level run from the start: the app on a test home, a hosted test service with
 * its key, one folder scanned, and a run of all of it waited for to its end.
 */
import type { Application } from '../../electron/application/application-types.js';
import { createApplication } from '../../electron/application/create-application.js';
import type { RunState } from '../../electron/shared/contract/index.js';
import { untilScanned } from './app-home.js';

type Handlers = Application['handlers'];

/** The app on `home`, using the service at `url` with `key`, and `dir` added and scanned. */
export async function appOnService(
  home: string,
  dir: string,
  service: { url: string; key: string },
  files: number,
): Promise<{ app: Application; folderId: number }> {
  const app = await createApplication({
    transport: 'in-process',
    mediaBase: 'test://',
    env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
  });
  const h = app.handlers;
  await h['service.useHosted']({ baseUrl: service.url, apiKey: service.key });
  const folder = await h['folders.add']({ path: dir });
  await untilScanned(h, files);
  return { app, folderId: folder.id };
}

/** Runs `solution` over the folder and waits for the run to end (up to a minute). */
export async function runToEnd(
  h: Handlers,
  folderId: number,
  solution = 'objects',
): Promise<RunState> {
  const started = await h['runs.start']({
    solution,
    folderIds: [folderId],
    budget: null,
    hourBudget: null,
    retryUncertain: false,
  });
  const end = Date.now() + 60_000;
  for (;;) {
    const state = await h['runs.current']({});
    if (state?.runKey === started.runKey && state.finishedAt !== null) return state;
    if (Date.now() > end) throw new Error(`the run did not end: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
