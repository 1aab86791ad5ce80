/**
 * File names with control characters upload like any other: the multipart filename is escaped as
 * browsers escape it (and the rest of the controls the same way), so the embedded service reads
 * the request instead of refusing it as malformed_multipart.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotedFilename } from '../../../../electron/core/service/request-body.js';
import { ServiceClient } from '../../../../electron/core/service/service-client.js';
import { startFixture, TEST_KEY, type Fixture } from '../../../support/service-fixture.js';
import { jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let fx: Fixture;
let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  fx = await startFixture();
  tmp = await tempDir('labeldesk-names-');
});
afterAll(async () => {
  await fx.stop();
  await tmp.remove();
});

const NAMES = [
  'tab\there.jpg',
  'line\nbreak.jpg',
  'carriage\rreturn.jpg',
  'bell\u0007and\u001b[31mred.jpg',
  'nul\u0000.jpg',
  'del\u007f.jpg',
  'quote".jpg',
];

describe('control characters in upload names', () => {
  it('escapes every control character and the quote, and nothing else', () => {
    expect(quotedFilename('a\tb\nc\rd"e\u0000\u001b\u007f é.jpg')).toBe(
      'a%09b%0Ac%0Dd%22e%00%1B%7F é.jpg',
    );
  });

  it.each(NAMES)('%j is labelled, not refused', async (name) => {
    // The name comes from the file itself, as in a run; no file system takes NUL, so that one is
    // given as the upload's name.
    const onDisk = name.split('\u0000').join('0');
    const file = join(tmp.dir, onDisk);
    await writeFile(file, await jpeg(40, 30, 1));
    const client = new ServiceClient({ baseUrl: fx.url, apiKey: TEST_KEY });
    const answer = await client.inferImage({
      solution: 'objects',
      file,
      ...(onDisk === name ? {} : { filename: name }),
    });
    expect(answer.image).toMatchObject({ width: 40, height: 30 });
  });
});
