import { APP_NAME } from '../../electron/shared/app-info.js';

/** Placeholder shell; the review UI arrives with its own issue. */
export function App() {
  return (
    <main>
      <h1>{APP_NAME}</h1>
      <p>Start the embedded service with `npx labeldesk serve`.</p>
    </main>
  );
}
