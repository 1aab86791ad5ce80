import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runServe } from '../../support/run-serve.js';
import { tempDir } from '../../support/temp-dir.js';

const exec = promisify(execFile);
let data: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  data = await tempDir('labeldesk-serve-');
});
afterAll(() => data.remove());

describe('labeldesk serve', () => {
  it('prints its URL, creates and shows one API key on the first start only, and stops cleanly on SIGTERM', async () => {
    const first = await runServe(['--data', data.dir, '--engine', 'null']);
    const key = /API key.*: (ldk_\S+)/.exec(first.stdout())?.[1];
    expect(key).toBeDefined();
    const status = await fetch(`${first.url}/key`, { headers: { authorization: `Bearer ${key}` } });
    expect(await status.json()).toMatchObject({ audience: 'api_key' });
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.stderr()).not.toContain(key);

    const second = await runServe(['--data', data.dir, '--engine', 'null']);
    expect(second.stdout()).not.toContain('ldk_');
    const again = await fetch(`${second.url}/key`, { headers: { authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('registers --key grants and --hour-frames, published in the catalog', async () => {
    const s = await runServe([
      '--data',
      data.dir,
      '--engine',
      'null',
      '--key',
      'ldk_cli_key_abcdef:77',
      '--hour-frames',
      '50',
    ]);
    try {
      const key = await (
        await fetch(`${s.url}/key`, { headers: { authorization: 'Bearer ldk_cli_key_abcdef' } })
      ).json();
      expect(key).toMatchObject({ remaining: 77, hourRemaining: 50 });
      const catalog = await (await fetch(`${s.url}/catalog`)).json();
      expect(catalog.limits.hourFrames).toBe(50);
    } finally {
      await s.stop();
    }
  });

  it('exits non-zero with one sentence naming the port when the port is taken, whatever the engine', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      for (const engine of ['null', 'models']) {
        const run = exec(
          process.execPath,
          [CLI, 'serve', '--port', String(port), '--engine', engine, '--data', data.dir],
          { timeout: 60_000 },
        );
        const failed = (await run.then(
          () => ({ code: 0, stderr: '', killed: false }),
          (err: { code: number; stderr: string; killed: boolean }) => err,
        )) as { code: number; stderr: string; killed: boolean };
        expect({ engine, killed: failed.killed }).toEqual({ engine, killed: false });
        expect(failed.code).toBe(1);
        const lines = failed.stderr.trim().split('\n');
        expect(lines).toEqual([
          `labeldesk: port ${port} on 127.0.0.1 is already in use; stop what uses it or pick another with --port.`,
        ]);
      }
    } finally {
      blocker.close();
    }
  });

  it('has --help and refuses bad options with exit code 2', async () => {
    const help = await exec(process.execPath, [CLI, 'serve', '--help']);
    for (const flag of [
      '--host',
      '--port',
      '--data',
      '--key',
      '--hour-frames',
      '--engine',
      '--latency-ms',
      '--challenge-token',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    const top = await exec(process.execPath, [CLI, '--help']);
    expect(top.stdout).toContain('serve');
    await expect(exec(process.execPath, [CLI, 'serve', '--engine', 'magic'])).rejects.toMatchObject(
      { code: 2 },
    );
    await expect(exec(process.execPath, [CLI, 'serve', '--port', 'x'])).rejects.toMatchObject({
      code: 2,
    });
  });
});
