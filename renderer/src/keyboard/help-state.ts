/**
 * The `?` help: open or not, and for which screen. An open review names itself (image or clip),
 * otherwise the help is for the screen shown.
 */
import type { HelpScreen } from '@shared/keyboard/registry.js';
import { createStore } from '../state/small-store.js';

export interface HelpState {
  open: boolean;
  /** A review open over the library; null: the screen shown. */
  review: Extract<HelpScreen, 'image' | 'clip'> | null;
}

export const helpStore = createStore<HelpState>({ open: false, review: null });

export const openHelp = () => helpStore.set((s) => ({ ...s, open: true }));
export const closeHelp = () => helpStore.set((s) => ({ ...s, open: false }));
