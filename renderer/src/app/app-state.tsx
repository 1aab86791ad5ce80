/**
 * State shared across screens: which screen is shown, the solution whose boxes the app shows and
 * labels with, and a library selection handed to the Runs screen ("Label selection").
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useCall } from '../api/use-call.js';
import type { Screen } from './screens.js';

export interface AppState {
  screen: Screen;
  go(screen: Screen): void;
  solution: string;
  setSolution(id: string): void;
  /** Library items chosen to label next (null: none handed over). */
  selectionScope: number[] | null;
  setSelectionScope(ids: number[] | null): void;
}

const AppStateContext = createContext<AppState | null>(null);

export function AppStateProvider({ children }: { children: ReactNode }) {
  const [screen, go] = useState<Screen>('library');
  const [chosen, setSolution] = useState<string | null>(null);
  const [selectionScope, setSelectionScope] = useState<number[] | null>(null);
  const service = useCall('service.state', {});
  const history = useCall('runs.history', { limit: 1 });
  const solutions = service.data?.solutions.map((s) => s.id) ?? [];
  // The last run's solution is what the user worked with; then the catalog's general one.
  const solution =
    chosen ??
    history.data?.[0]?.solution ??
    (solutions.includes('objects') ? 'objects' : (solutions[0] ?? 'objects'));
  const value = useMemo(
    () => ({ screen, go, solution, setSolution, selectionScope, setSelectionScope }),
    [screen, solution, selectionScope],
  );
  return <AppStateContext.Provider value={value}>{children}</AppStateContext.Provider>;
}

export function useAppState(): AppState {
  const state = useContext(AppStateContext);
  if (!state) throw new Error('useAppState outside AppStateProvider');
  return state;
}
