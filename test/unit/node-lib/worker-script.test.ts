import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerScript } from '../../../electron/node-lib/worker-script.js';

describe('workerScript under the unit tier', () => {
  it("points a TypeScript caller's worker at its .ts source, which exists without a build", () => {
    const caller = new URL('../../../electron/core/store/media-writer.ts', import.meta.url).href;
    const url = workerScript(caller, 'media-writer-worker.js');
    expect(fileURLToPath(url)).toMatch(/electron\/core\/store\/media-writer-worker\.ts$/);
    expect(existsSync(url)).toBe(true);
  });

  it('leaves a compiled caller with its compiled sibling', () => {
    const url = workerScript('file:///app/build/electron/core/store/media-writer.js', 'w.js');
    expect(url.href).toBe('file:///app/build/electron/core/store/w.js');
  });
});
