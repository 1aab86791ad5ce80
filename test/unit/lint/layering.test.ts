/** The layering rule must bite: each forbidden import below is reported, each allowed one is not. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
}

describe('layering lint rule', () => {
  it.each([
    ['electron/shared/x.ts', "import { readFile } from 'node:fs';"],
    ['electron/shared/x.ts', "import { app } from 'electron';"],
    ['electron/core/x.ts', "import { app } from 'electron';"],
    ['electron/core/x.ts', "import { startLocalService } from '../local-service/service.js';"],
    ['electron/local-service/x.ts', "import { Library } from '../core/library/library.js';"],
    ['electron/cli/x.ts', "import { secureWebPreferences } from '../main/window-options.js';"],
    ['electron/core/x.ts', "import { createApplication } from '../application/application.js';"],
    ['electron/application/x.ts', "import { app } from 'electron';"],
    ['electron/cli/x.ts', "import { planRun } from '../core/runner/plan-run.js';"],
    [
      'electron/cli/commands/x.ts',
      "import type { LibraryStore } from '../../core/store/store-types.js';",
    ],
    ['electron/cli/x.ts', "import { startLocalService } from '../local-service/service.js';"],
    ['electron/application/x.ts', "import { main } from '../cli/main.js';"],
    ['renderer/src/x.ts', "import { readFile } from 'node:fs';"],
    ['renderer/src/x.ts', "import { x } from '../../electron/application/application.js';"],
    ['renderer/src/x.ts', "import { Library } from '../../electron/core/library/library.js';"],
    ['renderer/src/x.ts', "import { APP_NAME } from '../../electron/shared/app-info.js';"],
    // The store only persists: no other core folder, by a sibling path or through core.
    [
      'electron/core/store/x.ts',
      "import { mergeCorrections } from '../review/merge-corrections.js';",
    ],
    ['electron/core/store/x.ts', "import { estimateCounts } from '../runner/estimate-counts.js';"],
    ['electron/core/store/x.ts', "import type { Catalog } from '../service/catalog.js';"],
    ['electron/core/store/x.ts', "import { x } from '../../core/review/corrected-set.js';"],
    ['electron/core/store/x.ts', "import { x } from '../../application/app-context.js';"],
    ['electron/core/store/x.ts', "import { app } from 'electron';"],
  ])('refuses in %s: %s', async (file, code) => {
    expect(await restricted(file, `${code}\nexport {};\n`)).toBe(true);
  });

  it.each([
    ['electron/core/x.ts', "import { openDatabase } from '../node-lib/sqlite.js';"],
    ['electron/cli/x.ts', "import { labeldeskHome } from '../node-lib/app-paths.js';"],
    ['electron/cli/x.ts', "import { LabelDeskError } from '../shared/contract/index.js';"],
    ['electron/main/x.ts', "import { app } from 'electron';"],
    ['electron/application/x.ts', "import { Library } from '../core/library/library.js';"],
    ['electron/cli/x.ts', "import { x } from '../application/application.js';"],
    ['renderer/src/x.ts', "import { APP_NAME } from '@shared/app-info.js';"],
    ['electron/core/store/x.ts', "import { openDatabase } from '../../node-lib/sqlite.js';"],
    ['electron/core/store/x.ts', "import { iou } from '../../shared/geometry/box-math.js';"],
    ['electron/core/store/x.ts', "import type { LibraryStore } from './store-types.js';"],
    ['electron/core/review/x.ts', "import type { LibraryStore } from '../store/store-types.js';"],
  ])('allows in %s: %s', async (file, code) => {
    expect(await restricted(file, `${code}\nexport {};\n`)).toBe(false);
  });
});
