/** The header: the service in use, its live credits, and the team project's badge. */
import { useCall } from '../api/use-call.js';
import { count } from '../ui/format.js';
import { APP_NAME } from '@shared/app-info.js';
import { TeamBadge } from '../features/team/team-badge.js';

export function AppHeader() {
  const { data: service } = useCall('service.state', {});
  const credits = service?.credits;
  return (
    <header className="app-header">
      <span className="app-title">{APP_NAME}</span>
      {service ? (
        <span className={`service-pill service-${service.status}`}>
          {service.kind === 'embedded' ? 'Embedded service' : 'Hosted service'} · {service.status}
        </span>
      ) : null}
      <TeamBadge />
      <span className="header-credits" aria-label="Credits">
        {credits ? (
          <>
            <strong>{count(credits.remaining)}</strong> frames left ·{' '}
            <strong>{count(credits.hourRemaining)}</strong> this hour
          </>
        ) : service ? (
          'Credits unknown'
        ) : null}
      </span>
    </header>
  );
}
