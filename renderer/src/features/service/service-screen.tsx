/** The Service screen: which service answers, its health and credits, the catalog, and switching. */
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { count, dateTime } from '../../ui/format.js';
import { CallDeadlineForm } from './call-deadline-form.js';
import { CatalogTable } from './catalog-table.js';
import { CheckServicePanel } from './check-service-panel.js';
import { HostedForm } from './hosted-form.js';
import { ModelsSection } from './models-section.js';
import { TrialForm } from './trial-form.js';

const KEY_STORES = {
  keychain: 'in the system keychain',
  memory: 'in memory for this session',
  environment: 'from LABELDESK_API_KEY',
  none: 'none',
} as const;

export function ServiceScreen() {
  const state = useCall('service.state', {});
  const refresh = useCallMutation('service.refresh', ['service.state']);
  const embedded = useCallMutation('service.useEmbedded', ['service.state', 'runs.estimate']);
  const forget = useCallMutation('service.forgetKey', ['service.state']);
  if (state.isError) return <ErrorNote error={state.error} title="Service" />;
  const s = state.data;
  if (!s) return <p className="loading">Loading the service…</p>;
  const hostedUrl = s.kind === 'hosted' ? s.baseUrl : '';

  return (
    <div className="screen service-screen">
      <div className="screen-head">
        <h1>Service</h1>
        <div className="actions">
          <button type="button" onClick={() => refresh.mutate({})} disabled={refresh.isPending}>
            Refresh
          </button>
          {s.kind === 'hosted' ? (
            <button type="button" onClick={() => embedded.mutate({})}>
              Use embedded service
            </button>
          ) : null}
          {s.kind === 'hosted' && s.hasKey && s.keyStore === 'keychain' ? (
            <button type="button" onClick={() => forget.mutate({})}>
              Forget key
            </button>
          ) : null}
        </div>
      </div>
      {[refresh, embedded, forget].map((m, i) =>
        m.isError ? <ErrorNote key={i} error={m.error} /> : null,
      )}
      <section className="panel" aria-labelledby="service-now">
        <h2 id="service-now">
          {s.kind === 'embedded' ? 'Embedded service (on this computer)' : 'Hosted service'}
        </h2>
        <dl className="facts facts-grid">
          <div>
            <dt>Status</dt>
            <dd className={`status-${s.status}`}>{s.status}</dd>
          </div>
          <div>
            <dt>Address</dt>
            <dd>{s.baseUrl}</dd>
          </div>
          <div>
            <dt>Version</dt>
            <dd>{s.version ?? '—'}</dd>
          </div>
          <div>
            <dt>Health</dt>
            <dd>{s.health ?? '—'}</dd>
          </div>
          <div>
            <dt>Engine</dt>
            <dd>{s.engine ?? '—'}</dd>
          </div>
          <div>
            <dt>Key</dt>
            <dd>{s.hasKey ? `Stored ${KEY_STORES[s.keyStore]}` : 'No key'}</dd>
          </div>
          <div>
            <dt>Checked</dt>
            <dd>{dateTime(s.checkedAt)}</dd>
          </div>
        </dl>
        {s.detail ? <p className="detail">{s.detail}</p> : null}
      </section>
      <section className="panel" aria-labelledby="credits-title">
        <h2 id="credits-title">Credits</h2>
        {s.credits ? (
          <dl className="facts facts-grid">
            <div>
              <dt>Remaining</dt>
              <dd className="big-number">{count(s.credits.remaining)} frames</dd>
            </div>
            <div>
              <dt>This hour</dt>
              <dd className="big-number">{count(s.credits.hourRemaining)} frames</dd>
            </div>
            <div>
              <dt>Expires</dt>
              <dd>{s.credits.expiresAt ? dateTime(Date.parse(s.credits.expiresAt)) : 'Never'}</dd>
            </div>
            <div>
              <dt>Key kind</dt>
              <dd>{s.credits.audience}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted">
            {s.status === 'offline'
              ? 'Credits are unknown while the service is offline.'
              : 'No key: credits are unknown.'}
          </p>
        )}
      </section>
      <div className="form-row">
        <HostedForm initialUrl={hostedUrl} />
        <TrialForm initialUrl={hostedUrl} />
      </div>
      <CheckServicePanel />
      <ModelsSection />
      <CallDeadlineForm />
      <CatalogTable solutions={s.solutions} limits={s.limits} />
    </div>
  );
}
