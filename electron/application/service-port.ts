/** The runner's view of a service client, named by the identity its results are stored under. */
import type { ServicePort } from '../core/runner/service-port.js';
import type { ServiceClient } from '../core/service/service-client.js';

/** The keychain account and stored identity of the embedded service (its port changes each start). */
export const EMBEDDED_ACCOUNT = 'http://labeldesk-embedded.invalid';

export function servicePortOf(identity: string, client: ServiceClient): ServicePort {
  return {
    baseUrl: identity,
    catalog: (signal) => client.catalog(signal),
    keyStatus: (signal) => client.keyStatus(signal),
    inferImage: (input) => client.inferImage(input),
    submitVideo: (input) => client.submitVideo(input),
    job: (id, signal, context) => client.job(id, signal, context),
    cancelJob: (id) => client.cancelJob(id),
  };
}
