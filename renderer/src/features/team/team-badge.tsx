/**
 * The team badge in the shell's header: always visible while the library is in a project, live
 * from `team.changed` events (the main process syncs; the renderer never polls the hub).
 */
import type { TeamState } from '@shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { useAppState } from '../../app/app-state.js';

/** The badge's words: conflicts first (a person must act), then offline, then in step or not. */
export function teamBadgeText(s: TeamState): { text: string; tone: 'ok' | 'busy' | 'warn' } {
  const waiting = `${s.pendingPush} change${s.pendingPush === 1 ? '' : 's'} waiting`;
  if (s.conflicts > 0) {
    return { text: `${s.conflicts} conflict${s.conflicts === 1 ? '' : 's'}`, tone: 'warn' };
  }
  if (s.error) return { text: `Team · ${s.error.code}`, tone: 'warn' };
  if (!s.online) return { text: `offline · ${waiting}`, tone: 'warn' };
  if (s.pendingPush > 0 || (s.pendingPull ?? 0) > 0)
    return { text: 'Team · syncing', tone: 'busy' };
  return { text: 'Team · synced', tone: 'ok' };
}

export function TeamBadge() {
  const { data } = useCall('team.state', {});
  const { go } = useAppState();
  if (!data || data.project === null) return null;
  const { text, tone } = teamBadgeText(data);
  return (
    <button
      type="button"
      className={`team-badge team-${tone}`}
      aria-label={`Team project ${data.project}: ${text}. Open the Team screen.`}
      title={data.offlineReason ?? data.error?.message ?? `Project ${data.project}`}
      onClick={() => go('team')}
    >
      <span role="status">{text}</span>
    </button>
  );
}
