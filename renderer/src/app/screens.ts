/** The screens, in navigation order (Ctrl+1..5 the first five). */
export const SCREENS = ['library', 'folders', 'runs', 'service', 'quality', 'team'] as const;
export type Screen = (typeof SCREENS)[number];

export const SCREEN_NAMES: Record<Screen, string> = {
  library: 'Library',
  folders: 'Folders',
  runs: 'Runs',
  quality: 'Quality',
  service: 'Service',
  team: 'Team',
};
