/**
 * The desktop app's way out: closing the last window, the menu's Quit, SIGTERM or SIGINT all come
 * to `before-quit`, which closes the application under the same deadline as browser mode (see
 * quit-deadline.ts) and then exits. Electron's `app` is typed structurally so this glue runs in
 * plain Node tests.
 */
import { quitter, type QuitOptions } from '../application/quit-deadline.js';

export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  quit(): void;
  exit(code: number): void;
}

export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export function quitOnClose(
  app: QuittingApp,
  application: { close(): Promise<void> },
  options: {
    log: (line: string) => void;
    signals?: SignalSource;
    isMac?: boolean;
    deadlineMs?: QuitOptions['deadlineMs'];
  },
): void {
  const quit = quitter({
    close: () => application.close(),
    exit: (code) => app.exit(code),
    log: options.log,
    ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
  });
  app.on('before-quit', (event) => {
    // Electron would exit as soon as this returns: the application closes first, then exits.
    event.preventDefault();
    quit();
  });
  app.on('window-all-closed', () => {
    if (!options.isMac) app.quit();
  });
  // A signal asks like the menu's Quit does; a second one ends at once.
  options.signals?.on('SIGINT', () => app.quit());
  options.signals?.on('SIGTERM', () => app.quit());
}
