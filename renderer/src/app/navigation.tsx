/** The screens' navigation landmark; the active screen carries aria-current. */
import { chordText } from '@shared/keyboard/chords.js';
import { commandById } from '@shared/keyboard/registry.js';
import { useAppState } from './app-state.js';
import { SCREEN_NAMES, SCREENS } from './screens.js';

export function Navigation() {
  const { screen, go } = useAppState();
  return (
    <nav className="app-nav" aria-label="Screens">
      <ul>
        {SCREENS.map((s) => {
          const keys = chordText(commandById(`app.${s}`).keys[0] ?? '');
          return (
            <li key={s}>
              <button
                type="button"
                className="nav-button"
                aria-current={s === screen ? 'page' : undefined}
                aria-keyshortcuts={keys.replace('Ctrl', 'Control')}
                title={`${SCREEN_NAMES[s]} (${keys})`}
                onClick={() => go(s)}
              >
                {SCREEN_NAMES[s]}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
