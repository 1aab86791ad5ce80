/**
 * The shell: header, banners, navigation and the active screen; the registry's keys of every
 * screen (Ctrl+1..5 switch screens, `?` helps).
 */
import { FoldersScreen } from '../features/folders/folders-screen.js';
import { useFolderDrop } from '../features/folders/use-folder-drop.js';
import { LibraryScreen } from '../features/library/library-screen.js';
import { QualityScreen } from '../features/quality/quality-screen.js';
import { RunsScreen } from '../features/runs/runs-screen.js';
import { ServiceScreen } from '../features/service/service-screen.js';
import { TeamScreen } from '../features/team/team-screen.js';
import { AppHeader } from './app-header.js';
import { useAppState } from './app-state.js';
import { Banners } from './banners.js';
import { Navigation } from './navigation.js';
import { useCommands } from '../keyboard/use-commands.js';
import { openHelp } from '../keyboard/help-state.js';
import { SCREEN_NAMES } from './screens.js';
import { ScreenHelp } from './shortcut-help.js';

export function App() {
  const { screen, go } = useAppState();
  const drop = useFolderDrop();

  useCommands('app', {
    handlers: {
      'app.library': () => go('library'),
      'app.folders': () => go('folders'),
      'app.runs': () => go('runs'),
      'app.service': () => go('service'),
      'app.quality': () => go('quality'),
      'app.team': () => go('team'),
      'app.help': openHelp,
    },
  });

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
        {screen === 'team' ? <TeamScreen /> : null}
      </main>
      <ScreenHelp />
    </div>
  );
}
