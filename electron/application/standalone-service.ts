/** `labeldesk serve`: the embedded service on its own, for other clients and the SDKs. */
import type { startLocalService } from '../local-service/service.js';

export async function serveStandalone(
  options: Parameters<typeof startLocalService>[0],
): ReturnType<typeof startLocalService> {
  // Loaded when serving only, so every other command starts without the service's modules.
  const service = await import('../local-service/service.js');
  return service.startLocalService(options);
}
