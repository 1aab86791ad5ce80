/**
 * The only pages LabelDesk opens in the user's browser: https links we put in the app ourselves
 * (the Help menu). Anything else a page asks to open is refused.
 */
export const PROJECT_URL = 'https://github.com/labeldesk/labeldesk';

export const HELP_LINKS = [
  { label: 'LabelDesk on GitHub', url: PROJECT_URL },
  { label: 'User guide', url: `${PROJECT_URL}#readme` },
  { label: 'Report a problem', url: `${PROJECT_URL}/issues` },
] as const;

const ALLOWED_PREFIXES = [`${PROJECT_URL}/`, `${PROJECT_URL}#`];

/** Whether `url` is an https link on our allow-list (compared after URL normalisation). */
export function isAllowedExternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') {
    return false;
  }
  const href = parsed.href;
  return href === PROJECT_URL || ALLOWED_PREFIXES.some((prefix) => href.startsWith(prefix));
}

/** Opens an allowed link with `openExternal`; returns whether it did. */
export function openAllowedExternal(url: string, openExternal: (url: string) => unknown): boolean {
  if (!isAllowedExternalUrl(url)) return false;
  void Promise.resolve(openExternal(url)).catch(() => undefined);
  return true;
}
