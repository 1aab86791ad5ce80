/**
 * Keeps cached answers fresh from the application's events: payloads that are whole answers are put
 * in the cache as they are; other events mark the calls they affect stale (only the queries on
 * screen refetch).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { CallName, LabelDeskApi } from '@shared/contract/index.js';
import { callKey } from './use-call.js';

const LIBRARY_VIEWS: CallName[] = [
  'library.page',
  'library.classCounts',
  'library.item',
  'folders.list',
  'folders.issues',
  'runs.estimate',
  'runs.problems',
  'review.reviewed',
  'quality.evaluate',
];

export function wireEvents(api: LabelDeskApi, client: QueryClient): () => void {
  const stale = (names: CallName[]) => {
    for (const name of names) void client.invalidateQueries({ queryKey: [name] });
  };
  const offs = [
    api.on('library.changed', () => stale(LIBRARY_VIEWS)),
    api.on('folders.changed', (folders) => {
      client.setQueryData(callKey('folders.list', {}), folders);
      stale(['runs.estimate', 'library.page', 'library.classCounts', 'folders.issues']);
    }),
    api.on('service.changed', (state) => {
      client.setQueryData(callKey('service.state', {}), state);
      // Its start may have left a notice (no keychain…): app.info carries them, and the service
      // now starts after the first screen has asked for it.
      stale(['runs.estimate', 'app.info']);
    }),
    api.on('team.changed', (state) => {
      client.setQueryData(callKey('team.state', {}), state);
      stale(['team.conflicts']);
    }),
    api.on('run.progress', (run) => client.setQueryData(callKey('runs.current', {}), run)),
    api.on('run.finished', (run) => {
      client.setQueryData(callKey('runs.current', {}), run);
      // The credits a run spent show at once, not at the service's next periodic check.
      void api
        .call('service.refresh', {})
        .then((state) => client.setQueryData(callKey('service.state', {}), state))
        .catch(() => undefined);
      // An item on review shows what a re-analysis brought, under the person's corrections.
      stale(['runs.history', 'runs.autoLabel', 'service.state', 'review.boxes', ...LIBRARY_VIEWS]);
    }),
  ];
  return () => offs.forEach((off) => off());
}
