/** The shell: header, banners, navigation and the active screen; Ctrl+1..5 switch screens. */
import { useEffect } from 'react';
import { FoldersScreen } from '../features/folders/folders-screen.js';
import { useFolderDrop } from '../features/folders/use-folder-drop.js';
import { LibraryScreen } from '../features/library/library-screen.js';
import { QualityScreen } from '../features/quality/quality-screen.js';
import { RunsScreen } from '../features/runs/runs-screen.js';
import { ServiceScreen } from '../features/service/service-screen.js';
import { AppHeader } from './app-header.js';
import { useAppState } from './app-state.js';
import { Banners } from './banners.js';
import { Navigation } from './navigation.js';
import { SCREEN_NAMES, screenForShortcut } from './screens.js';

export function App() {
  const { screen, go } = useAppState();
  const drop = useFolderDrop();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = screenForShortcut(e.key, e.ctrlKey || e.metaKey, e.altKey);
      if (!target) return;
      e.preventDefault();
      go(target);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  return (
    <div className="app">
      <AppHeader />
      <Navigation />
      <main className="app-main" aria-label={SCREEN_NAMES[screen]}>
        <Banners dropHint={drop.hint} onDismissHint={drop.clearHint} />
        {screen === 'library' ? <LibraryScreen /> : null}
        {screen === 'folders' ? <FoldersScreen /> : null}
        {screen === 'runs' ? <RunsScreen /> : null}
        {screen === 'quality' ? <QualityScreen /> : null}
        {screen === 'service' ? <ServiceScreen /> : null}
      </main>
    </div>
  );
}
