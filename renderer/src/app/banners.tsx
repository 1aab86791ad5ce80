/** Notices from the app, the service being offline, and the bridge being away. */
import { useConnection } from '../api/api-context.js';
import { useCall } from '../api/use-call.js';
import { duration } from '../ui/format.js';

export function Banners({
  dropHint,
  onDismissHint,
}: {
  dropHint: string | null;
  onDismissHint(): void;
}) {
  const connection = useConnection();
  const info = useCall('app.info', {});
  const service = useCall('service.state', {});
  return (
    <div className="banners">
      {connection.state === 'unavailable' ? (
        <p className="banner banner-error" role="alert">
          {connection.message}
        </p>
      ) : null}
      {connection.state === 'reconnecting' ? (
        <p className="banner banner-error" role="alert">
          Lost the connection to LabelDesk; trying again in{' '}
          {duration(Math.max(0, (connection.retryAt - Date.now()) / 1000))} (attempt{' '}
          {connection.attempt}).
        </p>
      ) : null}
      {service.data?.status === 'offline' ? (
        <p className="banner banner-warning" role="alert">
          The service is offline{service.data.detail ? `: ${service.data.detail}` : '.'} The library
          still browses from the local cache.
        </p>
      ) : null}
      {info.data?.notices.map((n) => (
        <p key={n} className="banner banner-info" role="status">
          {n}
        </p>
      ))}
      {dropHint ? (
        <p className="banner banner-info" role="status">
          {dropHint}{' '}
          <button type="button" className="link-button" onClick={onDismissHint}>
            Dismiss
          </button>
        </p>
      ) : null}
    </div>
  );
}
