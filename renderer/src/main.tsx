import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider } from './api/api-context.js';
import { createApi } from './api/create-api.js';
import { wireEvents } from './api/event-invalidation.js';
import { createQueryClient } from './api/query-client.js';
import { App } from './app/app.js';
import { AppStateProvider } from './app/app-state.js';
import { LibraryStateProvider } from './features/library/library-state.js';
import './styles/base.css';
import './styles/shell.css';
import './styles/service.css';
import './styles/folders.css';
import './styles/runs.css';
import './styles/library.css';
import './styles/viewer.css';
import './styles/team.css';

// Created once, before React: the launch secret leaves the address bar before anything renders.
const handle = createApi(window);
const queryClient = createQueryClient();
wireEvents(handle.api, queryClient);
// Events may have been missed while the bridge was away: everything on screen is refetched.
handle.onReconnect(() => void queryClient.invalidateQueries());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ApiProvider handle={handle}>
        <QueryClientProvider client={queryClient}>
          <AppStateProvider>
            <LibraryStateProvider>
              <App />
            </LibraryStateProvider>
          </AppStateProvider>
        </QueryClientProvider>
      </ApiProvider>
    </StrictMode>,
  );
}
