/**
 * The box origin while nobody has confirmed it (issue 23 §3): an answer the adapter read as
 * corners only because nothing decided leaves the service's origin **undecided** (kept per
 * service, so `doctor` and the next plan know), and the command says so once: at the start when
 * it is already known to be undecided, else at the first such answer. A person's choice
 * (`label --box-origin`, the Service screen) ends it; the adapter then reads as they chose.
 */
import { readingFor } from '../core/runner/service-reading.js';
import { BOX_ORIGIN_FIELD, type AdapterNote } from '../core/service/adapter/adapter-types.js';
import { decisionIn, keepDecision, keptDecision } from '../core/runner/origin-decision.js';
import type { RunnerStore } from '../core/runner/runner-store.js';
import type { SettingsPort } from '../core/store/store-ports.js';
import { rereadOnDecision } from './origin-decided-reread.js';

export const ORIGIN_ASSUMED = 'box origin assumed: corner — not confirmed';
/** The same on the Runs screen, where the person confirms on the Service screen's preview. */
export const ORIGIN_ASSUMED_IN_APP = `Box origin assumed: corner — not confirmed (bbox and bboxPx read alike with x,y as the corner or the centre): look at the boxes on the Service screen's preview and confirm there.`;

type Settings = SettingsPort;
const stateKey = (serviceUrl: string) => `service.box-origin:${serviceUrl}`;

/** Whether answers of this service were read as corners only because nothing decided. */
export function originUndecided(store: Settings, serviceUrl: string): boolean {
  return (
    store.settings.get(stateKey(serviceUrl)) === 'undecided' &&
    readingFor(store, serviceUrl).originConfirmed === false &&
    // Decided by its boxes once: what is read as corners now is read again with that.
    keptDecision(store, serviceUrl) === null
  );
}

/**
 * Records what an answer's notes say of the origin (undecided, or decided by its boxes: then the
 * decision is kept, for the held answers to be read again with it).
 */
export function recordOrigin(
  store: Settings,
  serviceUrl: string,
  notes: readonly AdapterNote[] | undefined,
): 'undecided' | 'decided' | null {
  const note = notes?.find((n) => n.field === BOX_ORIGIN_FIELD);
  if (!note) return null;
  const state = note.kind === 'not-published' ? 'undecided' : 'decided';
  const decision = decisionIn(notes);
  if (decision) keepDecision(store, serviceUrl, decision);
  if (store.settings.get(stateKey(serviceUrl)) !== state)
    store.settings.set(stateKey(serviceUrl), state);
  return state;
}

/**
 * For one command: says ORIGIN_ASSUMED once, records each answer's word on the origin, and reads
 * the held answers again when an answer's boxes decide it (origin-decided-reread.ts).
 */
export function boxOriginWatch(
  store: RunnerStore,
  serviceUrl: string,
  notice: (line: string) => void,
): (notes: readonly AdapterNote[] | undefined) => Promise<void> | undefined {
  let said = false;
  const say = () => {
    if (said) return;
    said = true;
    notice(
      `${ORIGIN_ASSUMED} (bbox and bboxPx read alike with x,y as the corner or the centre; look at the boxes on the Service screen's preview, or choose with --box-origin corner|centre)`,
    );
  };
  if (originUndecided(store, serviceUrl)) say();
  return (notes) => {
    const state = recordOrigin(store, serviceUrl, notes);
    if (state === 'undecided' && originUndecided(store, serviceUrl)) say();
    return state === 'decided' ? rereadOnDecision(store, notes, notice) : undefined;
  };
}
