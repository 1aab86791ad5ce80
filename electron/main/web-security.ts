/**
 * What a page may do beyond showing itself: nothing. No navigation away, no new windows (allowed
 * https links open in the user's browser instead), no webviews, no permissions, and our CSP on
 * every response of our pages.
 */
import { CONTENT_SECURITY_POLICY } from '../shared/content-security-policy.js';
import { openAllowedExternal } from './external-links.js';

interface PreventableLike {
  preventDefault(): void;
}

/** The parts of Electron's WebContents we lock down. */
export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: PreventableLike, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableLike) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** Denies navigation, redirects of the page, webviews and window.open on one web contents. */
export function lockDownWebContents(
  contents: WebContentsLike,
  openExternal: (url: string) => unknown,
): void {
  // Navigations started by main (loadURL/loadFile) do not fire these; only the page's own do.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openAllowedExternal(url, openExternal);
    return { action: 'deny' };
  });
}

type Headers = Record<string, string[]>;

interface HeadersDetails {
  url: string;
  responseHeaders?: Headers;
}

/** The parts of Electron's Session we lock down. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: HeadersDetails,
        callback: (response: { responseHeaders?: Headers }) => void,
      ) => void,
    ): void;
  };
}

/** Response headers with our CSP in place of any the server sent. */
export function withContentSecurityPolicy(headers: Headers | undefined): Headers {
  const kept = Object.entries(headers ?? {}).filter(
    ([name]) => name.toLowerCase() !== 'content-security-policy',
  );
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
}

/** Denies every permission request and check; adds our CSP to responses for `isOurPage` URLs. */
export function lockDownSession(session: SessionLike, isOurPage: (url: string) => boolean): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isOurPage(details.url)) {
      callback({});
      return;
    }
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}
