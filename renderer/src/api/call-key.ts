/** A query's key is `[callName, input]`, so events invalidate every query of a call by its name. */
import type { CallInput, CallName } from '@shared/contract/index.js';

export function callKey<N extends CallName>(name: N, input: CallInput<N>) {
  return [name, input] as const;
}
