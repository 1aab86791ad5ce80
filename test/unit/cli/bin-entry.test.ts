/**
 * bin/labeldesk.js picks what to run: the CLI's bundle (build/cli/) when it is at least as new as
 * tsc's last output, else tsc's own files (a coverage build has no bundle; `tsc` run alone leaves
 * an older one). Checked on a copy of the real file in a scratch tree whose two entries say who ran.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dir.js';

const BIN = fileURLToPath(new URL('../../../bin/labeldesk.js', import.meta.url));
let t: { dir: string; remove: () => Promise<void> };

beforeEach(async () => {
  t = await tempDir('labeldesk-bin-');
  mkdirSync(join(t.dir, 'bin'));
  copyFileSync(BIN, join(t.dir, 'bin', 'labeldesk.js'));
  writeFileSync(join(t.dir, 'package.json'), '{"type":"module"}');
});
afterEach(() => t.remove());

/** Writes an entry that prints `name` and its arguments, dated `mtimeSec`. */
function entry(relative: string, name: string, mtimeSec: number): void {
  const file = join(t.dir, 'build', relative);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    `export async function main(argv) { process.stdout.write('${name} ' + argv.join(' ')); return 0; }\n`,
  );
  utimesSync(file, mtimeSec, mtimeSec);
}

function tscOutputAt(mtimeSec: number): void {
  writeFileSync(join(t.dir, 'build', '.tsbuildinfo'), '{}');
  utimesSync(join(t.dir, 'build', '.tsbuildinfo'), mtimeSec, mtimeSec);
}

function run(...args: string[]) {
  return spawnSync(process.execPath, [join(t.dir, 'bin', 'labeldesk.js'), ...args], {
    encoding: 'utf8',
  });
}

describe('bin/labeldesk.js', () => {
  it('runs the bundle when it is as new as tsc’s output, and passes the arguments on', () => {
    entry('electron/cli/main.js', 'compiled', 1_000);
    tscOutputAt(1_000);
    entry('cli/main.js', 'bundle', 1_001);
    const r = run('label', 'photos');
    expect(r.stdout).toBe('bundle label photos');
    expect(r.status).toBe(0);
  });

  it('runs tsc’s files when the bundle is older than them', () => {
    entry('electron/cli/main.js', 'compiled', 2_000);
    entry('cli/main.js', 'bundle', 1_000);
    tscOutputAt(2_000);
    expect(run('--version').stdout).toBe('compiled --version');
  });

  it('runs tsc’s files when there is no bundle, and says to build when there is neither', () => {
    expect(run().stderr).toMatch(/not built yet; run `npm run build:node`/);
    expect(run().status).toBe(2);
    entry('electron/cli/main.js', 'compiled', 1_000);
    tscOutputAt(1_000);
    expect(run('plan').stdout).toBe('compiled plan');
  });
});
