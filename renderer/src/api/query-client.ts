/** One QueryClient for the app: loopback never counts as "offline". */
import { notifyManager, QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  // An answer reaches the screen in the task it arrives in: the default (a setTimeout per batch of
  // notifications) let other tasks run first (a 2-hour clip's boxes rendered ~20 ms after arriving).
  notifyManager.setScheduler(queueMicrotask);
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'always',
        staleTime: 30_000,
        retry: (count, err) =>
          count < 3 && (err as { code?: string }).code === 'bridge_disconnected',
        retryDelay: (count) => 500 * 2 ** count,
        refetchOnWindowFocus: false,
      },
      mutations: { networkMode: 'always' },
    },
  });
}
