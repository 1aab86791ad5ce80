/** The runner's view of a service client, named by the identity its results are stored under. */
import { basename } from 'node:path';
import type { ServicePort } from '../core/runner/service-port.js';
import type { AdapterNote } from '../core/service/adapter/adapter-types.js';
import type { ServiceClient } from '../core/service/service-client.js';

/** The keychain account and stored identity of the embedded service (its port changes each start). */
export const EMBEDDED_ACCOUNT = 'http://labeldesk-embedded.invalid';

/** `onNotes`: what the adapter remarked on each answer read (box-origin-watch.ts). */
export function servicePortOf(
  identity: string,
  client: ServiceClient,
  onNotes?: (notes: readonly AdapterNote[]) => void,
): ServicePort {
  const heard = <T extends { understanding: AdapterNote[] }>(answer: T): T => {
    onNotes?.(answer.understanding);
    return answer;
  };
  return {
    baseUrl: identity,
    catalog: (signal) => client.catalog(signal),
    keyStatus: (signal) => client.keyStatus(signal),
    inferImage: ({ bytes, ...input }) =>
      client
        .inferImage(bytes ? { ...input, file: bytes, filename: basename(input.file) } : input)
        .then(heard),
    submitVideo: (input) => client.submitVideo(input),
    job: (id, signal, context) => client.job(id, signal, context).then(heard),
    cancelJob: (id) => client.cancelJob(id),
  };
}
