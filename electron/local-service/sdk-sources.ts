import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resourcesDir } from '../node-lib/app-paths.js';

const CLIENTS = [
  { lang: 'curl', filename: 'labeldesk.sh', contentType: 'text/x-shellscript; charset=utf-8' },
  { lang: 'python', filename: 'labeldesk.py', contentType: 'text/x-python; charset=utf-8' },
  { lang: 'node', filename: 'labeldesk.mjs', contentType: 'text/javascript; charset=utf-8' },
  { lang: 'ts', filename: 'labeldesk.ts', contentType: 'text/plain; charset=utf-8' },
  {
    lang: 'browser',
    filename: 'labeldesk.browser.mjs',
    contentType: 'text/javascript; charset=utf-8',
  },
] as const;

export type SdkSource = { filename: string; contentType: string; body: string };

/** The client sources, read once and stamped with the running build's version. */
export function loadSdkSources(version: string): Map<string, SdkSource> {
  const dir = join(resourcesDir(), 'sdk');
  return new Map(
    CLIENTS.map(({ lang, filename, contentType }) => [
      lang,
      {
        filename,
        contentType,
        body: readFileSync(join(dir, filename), 'utf8').replaceAll(
          '__LABELDESK_VERSION__',
          version,
        ),
      },
    ]),
  );
}
