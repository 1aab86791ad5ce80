/**
 * React Query over the contract: a query's key is `[callName, input]`, so events invalidate every
 * query of a call by its name alone.
 */
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { CallInput, CallName, CallResult } from '@shared/contract/index.js';
import { useApiHandle } from './api-context.js';
import { callKey } from './call-key.js';
import { trackSaving } from './saving-edits.js';

export { callKey } from './call-key.js';

type QueryExtras<N extends CallName> = Omit<
  UseQueryOptions<CallResult<N>, Error, CallResult<N>, readonly [N, CallInput<N>]>,
  'queryKey' | 'queryFn'
>;

export function useCall<N extends CallName>(
  name: N,
  input: CallInput<N>,
  extras: QueryExtras<N> = {},
) {
  const { api } = useApiHandle();
  return useQuery({
    queryKey: callKey(name, input),
    queryFn: () => api.call(name, input),
    ...extras,
  });
}

/** A call that changes something; `invalidates` names the calls whose answers it makes stale. */
export function useCallMutation<N extends CallName>(name: N, invalidates: CallName[] = []) {
  const { api } = useApiHandle();
  const client = useQueryClient();
  return useMutation<CallResult<N>, Error, CallInput<N>>({
    mutationFn: (input) => {
      const answer = api.call(name, input);
      trackSaving(answer);
      return answer;
    },
    onSettled: () =>
      Promise.all(invalidates.map((n) => client.invalidateQueries({ queryKey: [n] }))),
  });
}
