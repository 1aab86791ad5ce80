/** File › Add folder…: the native picker, then one `folders.add` call per chosen folder. */
import type { Application } from '../application/application-types.js';
import { dispatchCall } from '../shared/contract/dispatch.js';

/** Adds what the user picks; returns one sentence per folder that could not be added. */
export async function addPickedFolders(
  pick: () => Promise<string[]>,
  app: Pick<Application, 'handlers'>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const path of await pick()) {
    // Through dispatch, so the menu's calls are validated exactly like the renderer's.
    const reply = await dispatchCall(app.handlers, 0, 'folders.add', { path });
    if (!reply.ok) problems.push(`${path}: ${reply.error.message}`);
  }
  return problems;
}
