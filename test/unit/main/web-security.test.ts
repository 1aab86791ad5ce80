import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl, PROJECT_URL } from '../../../electron/main/external-links.js';
import { isRendererResource } from '../../../electron/main/trusted-sender.js';
import {
  lockDownSession,
  lockDownWebContents,
  type SessionLike,
  type WebContentsLike,
} from '../../../electron/main/web-security.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/shared/content-security-policy.js';

type Handler = (...args: any[]) => any;

function fakeWebContents() {
  const listeners = new Map<string, Handler>();
  let openHandler: Handler = () => ({ action: 'allow' });
  const contents: WebContentsLike = {
    on: (event: string, listener: Handler) => listeners.set(event, listener),
    setWindowOpenHandler: (handler) => {
      openHandler = handler;
    },
  };
  /** Fires a preventable event; returns whether the page's action was prevented. */
  const fire = (event: string, url?: string) => {
    let prevented = false;
    listeners.get(event)?.({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  return { contents, fire, open: (url: string) => openHandler({ url }) };
}

describe('lockDownWebContents', () => {
  it('denies navigation, redirects and webviews started by the page', () => {
    const { contents, fire } = fakeWebContents();
    lockDownWebContents(contents, () => expect.fail('opened a link'));
    expect(fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(fire('will-attach-webview')).toBe(true);
  });

  it('denies window.open; only allowed https links go to the user browser', () => {
    const { contents, open } = fakeWebContents();
    const opened: string[] = [];
    lockDownWebContents(contents, (url) => opened.push(url));
    expect(open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(open(`${PROJECT_URL}/issues`)).toEqual({ action: 'deny' });
    expect(open('http://github.com/labeldesk/labeldesk')).toEqual({ action: 'deny' });
    expect(opened).toEqual([`${PROJECT_URL}/issues`]);
  });
});

describe('isAllowedExternalUrl', () => {
  it('allows only https links under our project URL', () => {
    expect(isAllowedExternalUrl(PROJECT_URL)).toBe(true);
    expect(isAllowedExternalUrl(`${PROJECT_URL}#readme`)).toBe(true);
    expect(isAllowedExternalUrl(`${PROJECT_URL}/issues`)).toBe(true);
    for (const url of [
      PROJECT_URL.replace('https:', 'http:'),
      `${PROJECT_URL}-evil`,
      `${PROJECT_URL}.evil.example/`,
      'https://github.com/labeldesk/labeldesk@evil.example/',
      'https://user:pw@github.com/labeldesk/labeldesk',
      `${PROJECT_URL}/../../other/repo`,
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(isAllowedExternalUrl(url), url).toBe(false);
    }
  });
});

function fakeSession() {
  let request: Handler = () => undefined;
  let check: Handler = () => true;
  let headers: Handler = () => undefined;
  const session: SessionLike = {
    setPermissionRequestHandler: (h) => (request = h),
    setPermissionCheckHandler: (h) => (check = h),
    webRequest: { onHeadersReceived: (h) => (headers = h) },
  };
  return {
    session,
    request: (permission: string) =>
      new Promise<boolean>((resolve) => request({}, permission, resolve)),
    check: (permission: string) => check({}, permission, 'file://') as boolean,
    headers: (url: string, responseHeaders?: Record<string, string[]>) =>
      new Promise<{ responseHeaders?: Record<string, string[]> }>((resolve) =>
        headers({ url, responseHeaders }, resolve),
      ),
  };
}

const RENDERER = { devServerUrl: 'http://localhost:5173' };
const isOurs = (url: string) => isRendererResource(url, RENDERER);

describe('lockDownSession', () => {
  it('denies every permission request and check', async () => {
    const s = fakeSession();
    lockDownSession(s.session, isOurs);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
    ]) {
      expect(await s.request(permission)).toBe(false);
      expect(s.check(permission)).toBe(false);
    }
  });

  it('puts our CSP on our pages, replacing one the server sent, and leaves other responses alone', async () => {
    const s = fakeSession();
    lockDownSession(s.session, isOurs);
    const dev = await s.headers('http://localhost:5173/', {
      'content-type': ['text/html'],
      'content-security-policy': ["script-src 'unsafe-eval'"],
    });
    expect(dev.responseHeaders).toEqual({
      'content-type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    const app = await s.headers('app://labeldesk/assets/index.js');
    expect(app.responseHeaders?.['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(await s.headers('https://github.com/labeldesk/labeldesk', {})).toEqual({});
    expect(await s.headers('file:///opt/LabelDesk/out/renderer/index.html', {})).toEqual({});
    expect(await s.headers('app://labeldeskevil/index.html', {})).toEqual({});
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  it('forbids eval and inline scripts and is the one in renderer/index.html', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline/);
    expect(directives.get('img-src')).toContain('labeldesk-media:');
    expect(directives.get('media-src')).toContain('labeldesk-media:');
    const html = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });
});
