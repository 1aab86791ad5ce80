/**
 * Which IPC senders may call the contract: the main frame of one of our windows, showing our own
 * renderer (the built file:// page, or the dev server in development). A subframe, a page that
 * navigated elsewhere, or any other web contents is refused.
 */
import { pathToFileURL } from 'node:url';
import type { FrameLike, IpcEventLike, IsTrustedSender } from './register-contract.js';

export interface RendererLocation {
  /** Absolute path of the built renderer's index.html. */
  file: string;
  /** The dev server's URL (ELECTRON_RENDERER_URL), when running under `electron-vite dev`. */
  devServerUrl?: string | undefined;
}

/** Whether a URL is our renderer page (any query or fragment). */
export function isRendererUrl(url: string, location: RendererLocation): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'file:') {
    return parsed.pathname === pathToFileURL(location.file).pathname && parsed.host === '';
  }
  if (!location.devServerUrl) return false;
  return parsed.origin === new URL(location.devServerUrl).origin;
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

/** Whether a response belongs to our pages (the built renderer's folder, or the dev server). */
export function isRendererResource(url: string, location: RendererLocation): boolean {
  if (location.devServerUrl && url.startsWith(`${new URL(location.devServerUrl).origin}/`)) {
    return true;
  }
  const folder = pathToFileURL(location.file).href.replace(/[^/]*$/, '');
  return url.startsWith(folder);
}
