/** The four screens, in navigation order (Ctrl+1..4). */
export const SCREENS = ['library', 'folders', 'runs', 'service'] as const;
export type Screen = (typeof SCREENS)[number];

export const SCREEN_NAMES: Record<Screen, string> = {
  library: 'Library',
  folders: 'Folders',
  runs: 'Runs',
  service: 'Service',
};
