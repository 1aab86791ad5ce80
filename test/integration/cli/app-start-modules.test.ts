/**
 * `labeldesk app` starts to a painted grid without the code that adds an own model (ONNX
 * Runtime, TensorFlow.js, the YAML reader): they load when a model is added. The modules are
 * recorded by a loader hook in the real process, up to the moment the app's address is printed.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, cliHome, startCli } from '../../support/cli-run.js';
import { loadedModules, moduleLogger } from '../../support/module-log.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  t = await cliHome();
});
afterEach(() => t.remove());

const NOT_AT_START = [
  /node_modules\/(onnxruntime-node|onnxruntime-common|@tensorflow\/[a-z-]+|yaml)\//,
  /\/electron\/local-service\/onnx\/own-model-add\.js$/,
];

describe('labeldesk app start-up', () => {
  it('serves the app without loading the own-model, ONNX or TensorFlow code', async () => {
    const log = join(t.dir, 'modules.log');
    const register = await moduleLogger(t.dir, log);
    const app = startCli(
      ['app', '--port', '0', '--no-open'],
      cliEnv(t.home, { NODE_OPTIONS: `--import=${register}` }),
    );
    try {
      await app.waitForOutput(/http:\/\/\S+#secret=\S+/);
    } finally {
      app.child.kill('SIGINT');
      await app.exited;
    }
    const loaded = await loadedModules(log);
    expect(loaded.some((u) => u.endsWith('/cli/commands/app-command.js'))).toBe(true);
    expect(loaded.some((u) => u.endsWith('/application/create-application.js'))).toBe(true);
    expect(loaded.filter((u) => NOT_AT_START.some((re) => re.test(u)))).toEqual([]);
  });
});
