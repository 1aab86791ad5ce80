/**
 * Media are served only for items whose probe succeeded, and only while the path still leads to
 * the very file that was probed: through browser mode's loopback server and through the
 * `labeldesk-media:` protocol handler (both over the one MediaSource). Real links: `passwd.jpg ->
 * /etc/passwd`, a photo outside the folder, `root-link -> /`, and a link swapped after the scan.
 */
import { mkdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBrowserMode,
  type BrowserMode,
} from '../../../electron/application/browser/browser-server.js';
import { TEST_HOME_MARKER } from '../../../electron/application/service-connection.js';
import { answerMediaRequest } from '../../../electron/main/media-protocol.js';
import { tempDir } from '../../support/temp-dir.js';

let mode: BrowserMode;
let remove: () => Promise<void>;
let folder: string;
let outside: string;
let mediaBase: string;
const ids = new Map<string, number>();
const when = Math.floor(Date.now() / 1000) - 60;

const photo = (file: string, colour: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .jpeg()
    .toFile(file);

/** The status of a file request through browser mode and through the Electron protocol. */
async function served(name: string, variant = 'file'): Promise<[number, number]> {
  const id = ids.get(name) as number;
  const http = await fetch(`${mode.origin}${mediaBase}${variant}/${id}`);
  await http.arrayBuffer();
  const viaProtocol = await answerMediaRequest(
    new Request(`labeldesk-media://${variant}/${id}`),
    mode.app.media,
  );
  await viaProtocol.arrayBuffer();
  return [http.status, viaProtocol.status];
}

beforeAll(async () => {
  const tmp = await tempDir();
  remove = tmp.remove;
  folder = join(tmp.dir, 'photos');
  outside = join(tmp.dir, 'outside');
  await mkdir(folder);
  await mkdir(outside);
  await photo(join(folder, 'red.jpg'), '#c33');
  await photo(join(outside, 'far.jpg'), '#33c');
  // Written a minute ago: a file younger than the app's settle time waits for a later scan.
  await utimes(join(folder, 'red.jpg'), when, when);
  await utimes(join(outside, 'far.jpg'), when, when);
  await symlink(join(outside, 'far.jpg'), join(folder, 'far.jpg'));
  await symlink('/etc/passwd', join(folder, 'passwd.jpg'));
  await symlink('/', join(folder, 'root-link'));
  const home = join(tmp.dir, 'home');
  const renderer = join(tmp.dir, 'renderer');
  await mkdir(home);
  await mkdir(renderer);
  await writeFile(join(home, TEST_HOME_MARKER), '');
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>LabelDesk</title>');
  mode = await startBrowserMode({
    rendererDir: renderer,
    env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
  });
  mediaBase = (await mode.app.handlers['app.info']({})).mediaBase;
  const added = await mode.app.handlers['folders.add']({ path: folder });
  for (let i = 0; i < 200; i++) {
    const [view] = await mode.app.handlers['folders.list']({});
    if (view && !view.scanning) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const page = await mode.app.handlers['library.page']({
    filter: { solution: 'objects', folderIds: [added.id] },
    sort: 'path',
    descending: false,
    offset: 0,
    limit: 10,
  });
  for (const item of page.items) ids.set(item.name, item.id);
}, 60_000);

afterAll(async () => {
  await mode?.close();
  await remove?.();
});

describe('media are served only for the probed file', () => {
  it('lists the linked folder once among the folder issues, and passwd.jpg as undecodable', async () => {
    expect([...ids.keys()].sort()).toEqual(['far.jpg', 'passwd.jpg', 'red.jpg']);
    const [view] = await mode.app.handlers['folders.list']({});
    const issues = await mode.app.handlers['folders.issues']({ id: view!.id, limit: 50 });
    expect(issues.map((i) => [i.path, i.code])).toEqual([
      [join(folder, 'root-link'), 'linked_folder'],
      [join(folder, 'passwd.jpg'), 'undecodable_media'],
    ]);
    expect(issues[0]!.message).toMatch(/^Linked folder not followed/);
    expect(view!.errors).toBe(2);
  });

  it('never serves a file whose probe failed (a link to /etc/passwd)', async () => {
    expect(await served('passwd.jpg')).toEqual([404, 404]);
    expect(await served('passwd.jpg', 'thumb')).toEqual([404, 404]);
  });

  it('serves a linked photo, then refuses it once the link is swapped', async () => {
    expect(await served('red.jpg')).toEqual([200, 200]);
    expect(await served('far.jpg')).toEqual([200, 200]);
    const bytes = await (
      await fetch(`${mode.origin}${mediaBase}file/${ids.get('far.jpg')}`)
    ).arrayBuffer();
    expect(Buffer.from(bytes).equals(await readFile(join(outside, 'far.jpg')))).toBe(true);
    // Swapped for a file of the same size and time: only its identity tells it apart.
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, Buffer.alloc((await stat(join(outside, 'far.jpg'))).size, 's'));
    await utimes(secret, when, when);
    await rm(join(folder, 'far.jpg'));
    await symlink(secret, join(folder, 'far.jpg'));
    expect(await served('far.jpg')).toEqual([404, 404]);
    expect(await served('far.jpg', 'thumb')).toEqual([404, 404]);
    // A regular file replaced by a link is refused the same way.
    await rm(join(folder, 'red.jpg'));
    await symlink(secret, join(folder, 'red.jpg'));
    expect(await served('red.jpg')).toEqual([404, 404]);
  });
});
