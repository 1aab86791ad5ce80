/** `labeldesk config`: the library's settings a person may change from the command line. */
import type { Command } from 'commander';
import { openAppContext } from '../../application/app-context.js';
import {
  callDeadlineOf,
  deadlineRangeText,
  setCallDeadline,
  type CallDeadline,
} from '../../application/call-deadline.js';
import { readOnlyRefusal } from '../../application/read-only-home.js';
import { UsageError } from '../../application/usage-error.js';

function describe(d: CallDeadline): string {
  const from =
    d.source === 'environment'
      ? ' (from LABELDESK_CALL_DEADLINE_S, which overrides the setting for this process)'
      : d.source === 'default'
        ? ' (the default)'
        : '';
  return `Call deadline: ${d.seconds} s${from}: the least time each call to the service is given, plus its upload at 128 KB/s.`;
}

export function addConfigCommand(program: Command): void {
  const config = program.command('config').description("Show or change the library's settings.");
  config
    .command('call-deadline [seconds]')
    .description(
      'The least time each call to a service is given before it is abandoned (1–86400 s; "default" for 120 s).',
    )
    .option('--json', 'print JSON')
    .action((value: string | undefined, opts: { json?: boolean }) => {
      const app = openAppContext();
      try {
        let now: CallDeadline;
        if (value === undefined) now = callDeadlineOf(app.store, app.env);
        else if (app.readOnly)
          throw new UsageError(readOnlyRefusal(app.home, app.readOnly, 'the call deadline'));
        else if (value === 'default') now = setCallDeadline(app.store, app.env, null);
        else {
          const seconds = Number(value);
          if (value.trim() === '' || !Number.isFinite(seconds))
            throw new UsageError(deadlineRangeText('The call deadline', value));
          now = setCallDeadline(app.store, app.env, seconds);
        }
        process.stdout.write(opts.json ? `${JSON.stringify(now)}\n` : `${describe(now)}\n`);
      } finally {
        app.close();
      }
    });
}
