import { Option, type Command } from 'commander';
import { join } from 'node:path';
import { labeldeskHome } from '../node-lib/app-paths.js';
import { parseIntOption } from './cli-options.js';
import { serveStandalone } from '../application/standalone-service.js';

interface ServeOptions {
  host: string;
  port: number;
  data?: string;
  key: { key: string; frames?: number }[];
  hourFrames?: number;
  engine: 'models' | 'null';
  latencyMs: number;
  challengeToken?: string;
}

function collectKey(value: string, previous: ServeOptions['key']): ServeOptions['key'] {
  const at = value.lastIndexOf(':');
  if (at === -1) return [...previous, { key: value }];
  const frames = parseIntOption(0)(value.slice(at + 1));
  return [...previous, { key: value.slice(0, at), frames }];
}

export function addServeCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('Run the embedded detection service (the same interface as the hosted one).')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', parseIntOption(0, 65535), 8787)
    .option('--data <dir>', 'state folder (keys, sessions, ledgers, jobs)')
    .option(
      '--key <key[:frames]>',
      'register an API key with a frame grant (repeatable)',
      collectKey,
      [],
    )
    .option('--hour-frames <n>', 'frames a token may spend per hour', parseIntOption(0))
    .addOption(
      new Option('--engine <engine>', 'detection engine')
        .choices(['models', 'null'])
        .default('models'),
    )
    .option('--latency-ms <n>', 'fixed latency of the null engine', parseIntOption(0, 60_000), 0)
    .option('--challenge-token <token>', 'demand this turnstileToken on POST /session')
    .action(async (opts: ServeOptions) => {
      const started = performance.now();
      const service = await serveStandalone({
        dataDir: opts.data ?? join(labeldeskHome(), 'service'),
        host: opts.host,
        port: opts.port,
        keys: opts.key,
        engine: opts.engine,
        latencyMs: opts.latencyMs,
        ...(opts.hourFrames !== undefined ? { hourFrames: opts.hourFrames } : {}),
        ...(opts.challengeToken !== undefined ? { challengeToken: opts.challengeToken } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      // One write, key first: whoever waits for the URL line has the key line too.
      const keyLine = service.createdKey
        ? `Created an API key (shown only this once; keep it): ${service.createdKey}\n`
        : '';
      process.stdout.write(
        `${keyLine}LabelDesk service ${service.version} listening on ${service.url}\n`,
      );
      service.engine.whenReady().then(
        () =>
          process.stderr.write(
            `detection engine ready in ${Math.round(performance.now() - started)} ms\n`,
          ),
        () => undefined,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      process.stderr.write('stopping…\n');
      await service.close();
      setExit(0);
    });
}
