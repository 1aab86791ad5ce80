/** The screens' navigation landmark; the active screen carries aria-current. */
import { chordText } from '@shared/keyboard/chords.js';
import { COMMANDS } from '@shared/keyboard/registry.js';
import { useAppState } from './app-state.js';
import { SCREEN_NAMES, SCREENS } from './screens.js';

export function Navigation() {
  const { screen, go } = useAppState();
  return (
    <nav className="app-nav" aria-label="Screens">
      <ul>
        {SCREENS.map((s) => {
          // Ctrl+1..6, one per screen in order.
          const chord = COMMANDS.find((c) => c.id === `app.${s}`)?.keys[0];
          const keys = chord ? chordText(chord) : '';
          return (
            <li key={s}>
              <button
                type="button"
                className="nav-button"
                aria-current={s === screen ? 'page' : undefined}
                aria-keyshortcuts={keys ? keys.replace('Ctrl', 'Control') : undefined}
                title={keys ? `${SCREEN_NAMES[s]} (${keys})` : SCREEN_NAMES[s]}
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
