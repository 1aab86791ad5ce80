/** The screens, in navigation order (Ctrl+1..5). */
export const SCREENS = ['library', 'folders', 'runs', 'service', 'quality'] as const;
export type Screen = (typeof SCREENS)[number];

export const SCREEN_NAMES: Record<Screen, string> = {
  library: 'Library',
  folders: 'Folders',
  runs: 'Runs',
  quality: 'Quality',
  service: 'Service',
};

/** The screen a Ctrl/Cmd+digit shortcut opens, if any. */
export function screenForShortcut(key: string, ctrl: boolean, alt: boolean): Screen | null {
  if (!ctrl || alt || !/^[1-9]$/.test(key)) return null;
  return SCREENS[Number(key) - 1] ?? null;
}
