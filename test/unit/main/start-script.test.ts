import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cannotBuild, failureLine, wantedBuild } from '../../../scripts/electron-sqlite.js';
import {
  browserModeLine,
  decideLaunch,
  electronBinary,
  hasDisplay,
} from '../../../scripts/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project folder whose electron package has (or lacks) its downloaded binary. */
function project({ pathTxt, binary }: { pathTxt: boolean; binary: boolean }) {
  const root = mkdtempSync(join(tmpdir(), 'labeldesk-start-'));
  dirs.push(root);
  const electron = join(root, 'node_modules', 'electron');
  mkdirSync(join(electron, 'dist'), { recursive: true });
  if (pathTxt) writeFileSync(join(electron, 'path.txt'), 'electron');
  if (binary) writeFileSync(join(electron, 'dist', 'electron'), '');
  return root;
}

describe('npm start', () => {
  it('finds the Electron binary only when it was downloaded', () => {
    const full = project({ pathTxt: true, binary: true });
    expect(electronBinary(full)).toBe(join(full, 'node_modules', 'electron', 'dist', 'electron'));
    expect(electronBinary(project({ pathTxt: false, binary: false }))).toBeUndefined();
    expect(electronBinary(project({ pathTxt: true, binary: false }))).toBeUndefined();
  });

  it('needs a display on Linux only', () => {
    expect(hasDisplay('linux', {})).toBe(false);
    expect(hasDisplay('linux', { DISPLAY: ':0' })).toBe(true);
    expect(hasDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(hasDisplay('darwin', {})).toBe(true);
    expect(hasDisplay('win32', {})).toBe(true);
  });

  it('launches Electron with a binary and a display, and browser mode otherwise, saying why', () => {
    const binary = '/p/node_modules/electron/dist/electron';
    expect(decideLaunch({ binary, platform: 'linux', env: { DISPLAY: ':1' } })).toEqual({
      mode: 'electron',
      binary,
    });
    expect(decideLaunch({ binary, platform: 'darwin', env: {} })).toEqual({
      mode: 'electron',
      binary,
    });

    const noBinary = decideLaunch({ binary: undefined, platform: 'linux', env: { DISPLAY: ':1' } });
    expect(noBinary).toMatchObject({
      mode: 'browser',
      reason: expect.stringMatching(/Electron binary/),
    });
    const noDisplay = decideLaunch({ binary, platform: 'linux', env: {} });
    expect(noDisplay).toMatchObject({
      mode: 'browser',
      reason: expect.stringMatching(/no display/),
    });
    const asked = decideLaunch({
      binary,
      platform: 'linux',
      env: { DISPLAY: ':1', LABELDESK_BROWSER_MODE: '1' },
    });
    expect(asked.mode).toBe('browser');
    for (const d of [noBinary, noDisplay, asked]) {
      expect((d as { reason: string }).reason).not.toMatch(/\n/);
    }
  });

  it('says why in one well-punctuated line, whichever reason (issue 27 §3: "why.." and "why.; starting")', () => {
    const reasons = [
      cannotBuild(wantedBuild()),
      ...[undefined, '/bin/electron'].map((binary) => {
        const d = decideLaunch({ binary, platform: 'linux', env: {} });
        return (d as { reason: string }).reason;
      }),
    ];
    for (const reason of reasons) {
      const line = browserModeLine(reason);
      expect(line).toMatch(/[^.]; starting browser mode instead\.$/);
      expect(line).not.toMatch(/\.\.|\.;|\n/);
    }
    const scriptLine = failureLine(cannotBuild(wantedBuild()));
    expect(scriptLine).toMatch(/^electron-sqlite: could not build .*[^.]\.\n$/);
    expect(scriptLine.trimEnd()).not.toMatch(/\.\.|\.;|\n/);
  });
});
