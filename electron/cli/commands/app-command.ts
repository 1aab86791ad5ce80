/** `labeldesk app`: the desktop UI in the browser (browser mode), on loopback. */
import type { Command } from 'commander';
import { startBrowserMode } from '../../application/browser/browser-server.js';
import { openInBrowser } from '../../application/browser/open-browser.js';
import { quitOnSignals, quitter } from '../../application/quit-deadline.js';
import { parseIntOption } from '../cli-options.js';

interface AppOptions {
  host: string;
  port: number;
  open: boolean;
}

export function addAppCommand(program: Command): void {
  program
    .command('app')
    .description('Open the LabelDesk app in your browser (the same UI as the desktop app).')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', parseIntOption(0, 65535), 8790)
    .option('--no-open', 'print the address without opening a browser')
    .action(async (opts: AppOptions) => {
      const mode = await startBrowserMode({
        bindHost: opts.host,
        port: opts.port,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      // The one place the launch secret is ever shown.
      process.stdout.write(`LabelDesk is running at ${mode.url}\n`);
      if (opts.open) openInBrowser(mode.url);
      // Ctrl-C or SIGTERM ends it within QUIT_DEADLINE_MS, whatever the app is doing.
      quitOnSignals(
        quitter({
          close: () => mode.close(),
          exit: (code) => process.exit(code),
          log: (line) => process.stderr.write(`${line}\n`),
        }),
      );
      await new Promise<never>(() => undefined);
    });
}
