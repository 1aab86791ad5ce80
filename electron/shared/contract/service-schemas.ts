/** The Service screen: which service, its catalog, health and the key's credits. */
import { z } from './zod.js';

export const SolutionView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  media: z.array(z.string()),
  classes: z.array(z.string()),
  /** null: the service does not publish it in a form LabelDesk reads, and it is not learnt yet. */
  frameCost: z.object({ image: z.number().nullable(), videoFrame: z.number().nullable() }),
});
export type SolutionView = z.infer<typeof SolutionView>;

export const KeyCredits = z.object({
  audience: z.string(),
  remaining: z.number(),
  hourRemaining: z.number(),
  expiresAt: z.string().nullable(),
});
export type KeyCredits = z.infer<typeof KeyCredits>;

export const ServiceState = z.object({
  kind: z.enum(['embedded', 'hosted']),
  /** What the user chose (hosted) or the embedded service's own address. */
  baseUrl: z.string(),
  status: z.enum(['starting', 'online', 'offline']),
  /** Why it is offline or starting, in one sentence. */
  detail: z.string().nullable(),
  version: z.string().nullable(),
  health: z.string().nullable(),
  /** The model behind answers (the embedded stand-in says so). */
  engine: z.string().nullable(),
  solutions: z.array(SolutionView),
  limits: z.record(z.string(), z.unknown()).nullable(),
  /** Whether a key is available; the key itself never crosses the contract. */
  hasKey: z.boolean(),
  /** Where the key lives: the OS keychain, memory for this session, or the environment. */
  keyStore: z.enum(['keychain', 'memory', 'environment', 'none']),
  credits: KeyCredits.nullable(),
  checkedAt: z.number(),
});
export type ServiceState = z.infer<typeof ServiceState>;

export const HostedServiceInput = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).max(2000),
  /** Sent once, stored in the keychain, never sent back. */
  apiKey: z.string().min(8).max(2000),
});

export const TrialInput = z.object({ baseUrl: z.url({ protocol: /^https?$/ }).max(2000) });

/** The least time each call to the service is given (a library setting; issue 23 §1). */
export const CallDeadlineView = z.object({
  seconds: z.number(),
  /** The environment (LABELDESK_CALL_DEADLINE_S) overrides the setting for one process. */
  source: z.enum(['default', 'setting', 'environment']),
});
export type CallDeadlineView = z.infer<typeof CallDeadlineView>;

/** null: back to the default (120 s). */
export const CallDeadlineInput = z.object({
  seconds: z.number().int().min(1).max(86_400).nullable(),
});
