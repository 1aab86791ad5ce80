// The JavaScript SDK clients are compiled from the one TypeScript client, so they cannot drift:
// resources/sdk/labeldesk.ts → labeldesk.mjs (Node) and labeldesk.browser.mjs (pages), each with
// its own opening comment. Run by `npm run build:node`; the outputs are git-ignored.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import prettier from 'prettier';
import ts from 'typescript';

const dir = join(import.meta.dirname, '..', 'resources', 'sdk');
const source = readFileSync(join(dir, 'labeldesk.ts'), 'utf8');
const { outputText } = ts.transpileModule(source, {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
});
// The source's own opening comment speaks of TypeScript; each output gets one of its own.
const body = outputText.replace(/^\/\*\*[\s\S]*?\*\/\n/, '');

const HEADERS = {
  'labeldesk.mjs': `/**
 * LabelDesk client for Node.js >= 18 (ES module), version __LABELDESK_VERSION__.
 * Talks to a LabelDesk detection service. Single file, no dependencies: global fetch, FormData
 * and Blob only. Compiled from the TypeScript client (GET /sdk/ts), which has the types.
 *
 * As a library:
 *   import LabelDeskClient from './labeldesk.mjs';
 *   const ld = new LabelDeskClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'ldk_...' });
 *   const { detections } = await ld.inferImage({ solution: 'objects', file: 'photo.jpg' });
 *   const sub = await ld.inferVideo({ solution: 'objects', file: 'clip.mp4' });
 *   const job = await ld.waitForJob(sub.jobId, { onProgress: (j) => console.log(j.progress) });
 *
 * As a command (BASE_URL and API_KEY from the environment; JSON on stdout, errors on stderr):
 *   node labeldesk.mjs catalog | health | key | sdk-key | session DEVICE_ID
 *   node labeldesk.mjs image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID
 */
`,
  'labeldesk.browser.mjs': `/**
 * LabelDesk client for the browser (ES module), version __LABELDESK_VERSION__.
 * Talks to a LabelDesk detection service. Single file, no dependencies: fetch, FormData, Blob and
 * File only, so it also runs under Node >= 18 as a command. Compiled from the TypeScript client
 * (GET /sdk/ts), which has the types.
 *
 * In a page:
 *   import LabelDeskClient from 'http://127.0.0.1:8787/sdk/browser';
 *   const ld = new LabelDeskClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'ldk_...' });
 *   const { detections } = await ld.inferImage({ solution: 'objects', file: input.files[0] });
 *   const sub = await ld.inferVideo({ solution: 'objects', file: clipBlob });
 *   const job = await ld.waitForJob(sub.jobId, { onProgress: (j) => console.log(j.progress) });
 *
 * As a command (BASE_URL and API_KEY from the environment; JSON on stdout, errors on stderr):
 *   node labeldesk.browser.mjs catalog | health | key | sdk-key | session DEVICE_ID
 *   node labeldesk.browser.mjs image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID
 */
`,
};

const options = (await prettier.resolveConfig(join(dir, 'labeldesk.ts'))) ?? {};
for (const [name, header] of Object.entries(HEADERS)) {
  const code = await prettier.format(header + body, { ...options, parser: 'babel' });
  writeFileSync(join(dir, name), code);
}
