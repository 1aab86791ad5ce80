/**
 * Which IPC senders may call the contract: the main frame of one of our windows, showing our own
 * renderer (the page of the app scheme, `app://labeldesk/index.html`, or the dev server in
 * development). A `file://` page, a subframe, a page that navigated elsewhere, or any other web
 * contents is refused.
 */
import { APP_ENTRY_URL, APP_ORIGIN, appPathOf } from './app-protocol.js';
import type { FrameLike, IpcEventLike, IsTrustedSender } from './register-contract.js';

export interface RendererLocation {
  /** The dev server's URL (ELECTRON_RENDERER_URL), when running under `electron-vite dev`. */
  devServerUrl?: string | undefined;
}

const ENTRY_PATH = new URL(APP_ENTRY_URL).pathname;

/** Whether a URL is our renderer page (any query or fragment). */
export function isRendererUrl(url: string, location: RendererLocation): boolean {
  const appPath = appPathOf(url);
  if (appPath !== undefined) return appPath === ENTRY_PATH || appPath === '/';
  if (!location.devServerUrl) return false;
  try {
    return new URL(url).origin === new URL(location.devServerUrl).origin;
  } catch {
    return false;
  }
}

function isMainFrame(frame: FrameLike | null): frame is FrameLike {
  return frame !== null && (frame.parent === null || frame.parent === undefined);
}

/** The policy for `registerContract`: `windowIds()` lists the web contents ids of our windows. */
export function trustedSenderPolicy(
  location: RendererLocation,
  windowIds: () => Iterable<number>,
): IsTrustedSender {
  return (event: IpcEventLike) => {
    if (!isMainFrame(event.senderFrame)) return false;
    if (!isRendererUrl(event.senderFrame.url, location)) return false;
    for (const id of windowIds()) if (id === event.sender.id) return true;
    return false;
  };
}

/** Whether a response belongs to our pages (the app scheme, or the dev server). */
export function isRendererResource(url: string, location: RendererLocation): boolean {
  if (location.devServerUrl && url.startsWith(`${new URL(location.devServerUrl).origin}/`)) {
    return true;
  }
  return url.startsWith(`${APP_ORIGIN}/`);
}
