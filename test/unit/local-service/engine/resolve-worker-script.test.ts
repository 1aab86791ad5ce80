import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveWorkerScript } from '../../../../electron/local-service/engine/resolve-worker-script.js';

const root = path.resolve('/repo');

describe('resolveWorkerScript', () => {
  it('maps TypeScript source under electron/ to the compiled file under build/electron/', () => {
    const caller = pathToFileURL(path.join(root, 'electron/local-service/engine/models-engine.ts'));
    const url = resolveWorkerScript(caller.href, 'detect-worker.js');
    expect(fileURLToPath(url)).toBe(
      path.join(root, 'build/electron/local-service/engine/detect-worker.js'),
    );
  });

  it('uses the sibling file when already running compiled JavaScript', () => {
    const caller = pathToFileURL(
      path.join(root, 'build/electron/local-service/engine/models-engine.js'),
    );
    const url = resolveWorkerScript(caller.href, 'detect-worker.js');
    expect(fileURLToPath(url)).toBe(
      path.join(root, 'build/electron/local-service/engine/detect-worker.js'),
    );
  });
});
