import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  appPathOf,
  handleAppProtocol,
} from '../../../electron/main/app-protocol.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/shared/content-security-policy.js';
import { fakeProtocol } from '../../support/fake-protocol.js';

let root: string;
let rendererDir: string;
const INDEX = '<!doctype html><title>LabelDesk</title>';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'labeldesk-app-scheme-'));
  rendererDir = join(root, 'out', 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), INDEX);
  writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  // What must never be served: a sibling of the renderer folder, and one with a shared prefix.
  writeFileSync(join(root, 'out', 'secret.txt'), 'secret');
  mkdirSync(join(root, 'out', 'renderer-evil'));
  writeFileSync(join(root, 'out', 'renderer-evil', 'x.js'), 'evil');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Registers the scheme on a fake `protocol` and fetches through its handler, as Electron would. */
function serve() {
  const { protocol, handlers, fetchVia } = fakeProtocol();
  const stop = handleAppProtocol(protocol, rendererDir);
  const fetchApp = (url: string, init?: RequestInit) => fetchVia(APP_SCHEME, url, init);
  return { fetchApp, stop, handlers };
}

describe('the app:// scheme', () => {
  it('is registered standard and secure, with fetch, and without a CSP bypass', () => {
    expect(APP_SCHEME_PRIVILEGES.scheme).toBe('app');
    expect(APP_SCHEME_PRIVILEGES.privileges).toMatchObject({
      standard: true,
      secure: true,
      supportFetchAPI: true,
      bypassCSP: false,
      allowServiceWorkers: false,
    });
  });

  it('serves the built renderer with our CSP, nosniff and types', async () => {
    const { fetchApp } = serve();
    const page = await fetchApp(APP_ENTRY_URL);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(
      `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetchApp('app://labeldesk/')).status).toBe(200);
    const script = await fetchApp('app://labeldesk/assets/index-abc.js?v=1');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toBe('console.log(1)');
  });

  it('never leaves the renderer folder, whatever the encoding', async () => {
    const { fetchApp } = serve();
    for (const url of [
      'app://labeldesk/../secret.txt',
      'app://labeldesk/%2e%2e/secret.txt',
      'app://labeldesk/..%2fsecret.txt',
      'app://labeldesk/assets/..%2f..%2fsecret.txt',
      'app://labeldesk/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://labeldesk/..%5csecret.txt',
      'app://labeldesk/../renderer-evil/x.js',
      'app://labeldesk/%2e%2e/renderer-evil/x.js',
      'app://labeldesk/index.html%00.js',
      `app://labeldesk/${encodeURIComponent(join(root, 'out', 'secret.txt'))}`,
      'app://labeldesk/assets',
      'app://labeldesk/missing.js',
      'app://other/index.html',
      'app://labeldesk:8080/index.html',
    ]) {
      const res = await fetchApp(url);
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
      expect(await res.text()).not.toMatch(/secret|evil/);
    }
    // Electron may hand over URLs a fetch Request refuses to build: the parser refuses them too.
    expect(appPathOf('app://user:pw@labeldesk/index.html')).toBeUndefined();
    expect(appPathOf('labeldesk-media://labeldesk/index.html')).toBeUndefined();
    expect(appPathOf('app://labeldesk/assets/a.js')).toBe('/assets/a.js');
  });

  it('is read-only, answers Range, and stops when unhandled', async () => {
    const { fetchApp, stop, handlers } = serve();
    expect((await fetchApp(APP_ENTRY_URL, { method: 'POST', body: 'x' })).status).toBe(405);
    const part = await fetchApp(APP_ENTRY_URL, { headers: { range: 'bytes=0-8' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe(INDEX.slice(0, 9));
    stop();
    expect(handlers.has(APP_SCHEME)).toBe(false);
  });
});
