/** The screens' navigation landmark; the active screen carries aria-current. */
import { useAppState } from './app-state.js';
import { SCREEN_NAMES, SCREENS } from './screens.js';

export function Navigation() {
  const { screen, go } = useAppState();
  return (
    <nav className="app-nav" aria-label="Screens">
      <ul>
        {SCREENS.map((s, i) => (
          <li key={s}>
            <button
              type="button"
              className="nav-button"
              aria-current={s === screen ? 'page' : undefined}
              aria-keyshortcuts={`Control+${i + 1}`}
              title={`${SCREEN_NAMES[s]} (Ctrl+${i + 1})`}
              onClick={() => go(s)}
            >
              {SCREEN_NAMES[s]}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
