/** One QueryClient for the app: loopback never counts as "offline". */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
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
