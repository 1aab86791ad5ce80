/**
 * A service's box origin decided by its boxes (decide-origin.ts), kept per service with the words
 * of the evidence: answers held while it was undecided are read again with it, during the run
 * that decided or at the next start (reread-assumed-origin.ts). A person's choice still comes
 * first; a later decision replaces an earlier one.
 */
import { BOX_ORIGIN_FIELD, type AdapterNote } from '../service/adapter/adapter-types.js';
import type { SettingsPort } from '../store/store-ports.js';

export interface OriginDecision {
  origin: 'corner' | 'centre';
  /** What decided, as the adapter said it: "x,y = the centre, decided by the boxes (…)". */
  why: string;
}

type Settings = SettingsPort;
const key = (serviceUrl: string) => `service.box-origin-decided:${serviceUrl}`;
const DECIDED = /^understood as (x,y = the (centre|top-left corner), decided by the boxes .*)$/s;

/** The decision an answer's notes carry, when its boxes decided the origin. */
export function decisionIn(notes: readonly AdapterNote[] | undefined): OriginDecision | null {
  const note = notes?.find((n) => n.field === BOX_ORIGIN_FIELD && n.kind === 'understood-as');
  const m = note && DECIDED.exec(note.text);
  if (!m) return null;
  return { origin: m[2] === 'centre' ? 'centre' : 'corner', why: m[1] as string };
}

export function keepDecision(store: Settings, serviceUrl: string, d: OriginDecision): void {
  store.settings.set(key(serviceUrl), JSON.stringify(d));
}

export function keptDecision(store: Settings, serviceUrl: string): OriginDecision | null {
  const saved = store.settings.get(key(serviceUrl));
  if (!saved) return null;
  const d = JSON.parse(saved) as Partial<OriginDecision>;
  if ((d.origin !== 'corner' && d.origin !== 'centre') || typeof d.why !== 'string') return null;
  return { origin: d.origin, why: d.why };
}
