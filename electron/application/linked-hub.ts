/** The hub of the project a library is in, with the member's password from the keychain. */
import { KeytarStore } from '../core/credentials/index.js';
import type { TeamLinkRow } from '../core/store/team-types.js';
import { HubClient } from '../core/team/hub-client.js';
import { hubAccount } from '../core/team/hub-url.js';

/**
 * A keychain that cannot be read is met as the hub's refusal would be: the caller goes on without
 * the hub, saying so. A short connect timeout: a run or a plan should not wait long for it.
 */
export async function openLinkedHub(link: TeamLinkRow): Promise<HubClient> {
  const password = await new KeytarStore().get(hubAccount(link.hub)).catch(() => undefined);
  return new HubClient({
    address: link.hub,
    password,
    project: link.project,
    connectTimeoutSeconds: 3,
  });
}
