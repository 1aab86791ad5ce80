/**
 * A lead's settlement waits locally when the hub goes away between reading the members' versions
 * and recording it (issue 26 §3): its settling changes are in the outbox like any change, and the
 * record that the file is settled (no longer blind) is kept here and goes out on the next sync,
 * after those changes. Kept in the library's settings (one JSON row per project): no secret, and
 * nothing a person made is in it.
 */
import type { SettingsPort, SettingsReader } from '../store/store-ports.js';
import type { HubClient } from './hub-client.js';
import { recordSettlement } from './hub-quality.js';
import { refreshWantedReviews } from './quality-wanted-reviews.js';
import { TeamError } from './team-errors.js';

export interface PendingSettlement {
  contentHash: string;
  kept: string;
}

const key = (project: string) => `team.pendingSettlements.${project}`;

export function pendingSettlements(store: SettingsReader, project: string): PendingSettlement[] {
  const text = store.settings.get(key(project));
  return text ? (JSON.parse(text) as PendingSettlement[]) : [];
}

function keep(store: SettingsPort, project: string, list: readonly PendingSettlement[]): void {
  store.settings.set(key(project), JSON.stringify(list));
}

/** Adds settlements to wait (a file settled again keeps the latest choice). */
export function holdSettlements(
  store: SettingsPort,
  project: string,
  list: readonly PendingSettlement[],
): void {
  const byFile = new Map(pendingSettlements(store, project).map((p) => [p.contentHash, p]));
  for (const p of list) byFile.set(p.contentHash, p);
  keep(store, project, [...byFile.values()]);
}

/**
 * Records the waiting settlements in the hub, each taken off the list once recorded; how many.
 * Run after the outbox went out (the settling changes first). The database refusing them (the
 * role is no lead any more) drops them: they can never be recorded, and the refusal is thrown.
 */
export async function recordPendingSettlements(
  store: SettingsPort,
  hub: Pick<HubClient, 'use' | 'schema'>,
  project: string,
): Promise<number> {
  const list = pendingSettlements(store, project);
  let recorded = 0;
  for (const p of list) {
    try {
      await recordSettlement(hub, p.contentHash, p.kept);
    } catch (err) {
      if (err instanceof TeamError && err.code === 'hub_refused') {
        keep(store, project, []);
      }
      throw err;
    }
    recorded += 1;
    keep(store, project, list.slice(recorded));
  }
  if (recorded > 0) await refreshWantedReviews(hub);
  return recorded;
}
