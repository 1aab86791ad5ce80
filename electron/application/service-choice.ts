/** The service the app was told to use (kept as a setting), and the state shown before it answers. */
import { z } from 'zod';
import type { ServiceState } from '../shared/contract/index.js';

export const Choice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('embedded') }),
  z.object({ kind: z.literal('hosted'), baseUrl: z.string().min(1) }),
]);
export type Choice = z.infer<typeof Choice>;

export function blankState(
  choice: Choice,
  status: ServiceState['status'],
  detail: string | null,
): ServiceState {
  return {
    kind: choice.kind,
    baseUrl: choice.kind === 'hosted' ? choice.baseUrl : '',
    status,
    detail,
    version: null,
    health: null,
    engine: null,
    solutions: [],
    limits: null,
    hasKey: false,
    keyStore: 'none',
    credits: null,
    checkedAt: Date.now(),
  };
}

export function trimUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
