/**
 * A service that follows the interface but publishes no frame cost in its catalog and no
 * `credits` in its answers: the embedded service behind the fault proxy, rewritten for good.
 * (A small local variant for cost learning; the fuller alternative service is test/support/alt-service.)
 */
import type { FaultProxy } from './fault-proxy.js';

export function stripPublishedCosts(proxy: FaultProxy): void {
  const forever = Number.POSITIVE_INFINITY;
  proxy.inject(
    'GET',
    '/catalog',
    {
      kind: 'rewrite',
      rewrite: (c: { solutions: Record<string, unknown>[] }) => ({
        ...c,
        solutions: c.solutions.map(({ frameCost: _, ...s }) => s),
      }),
    },
    forever,
  );
  const noCredits = {
    kind: 'rewrite' as const,
    rewrite: ({ credits: _, ...body }: Record<string, unknown>) => body,
  };
  proxy.inject('POST', '/infer/image', noCredits, forever);
  proxy.inject('POST', '/infer/video', noCredits, forever);
}
