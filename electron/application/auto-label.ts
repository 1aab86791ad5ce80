/**
 * Auto-labelling of watched folders: files that settle in a folder with auto-label on are labelled
 * with the chosen solution, within a budget of their own for this session.
 */
import type { SettingsPort } from '../core/store/store-ports.js';
import { AutoLabelInput, type AutoLabel, type RunState } from '../shared/contract/index.js';
import type { RunController } from './run-controller.js';
import { readSetting } from './stored-setting.js';

const SETTING = 'app.autoLabel';

export class AutoLabeller {
  private spent = 0;
  private pending = new Set<number>();
  private readonly ownRuns = new Set<string>();

  constructor(
    private readonly store: SettingsPort,
    private readonly runs: RunController,
    private readonly log: (line: string) => void,
  ) {}

  get(): AutoLabel {
    const saved = readSetting(this.store, SETTING, AutoLabelInput, this.log);
    return {
      enabled: saved?.enabled ?? false,
      solution: saved?.solution ?? 'objects',
      budget: saved?.budget ?? null,
      spent: this.spent,
    };
  }

  set(next: Omit<AutoLabel, 'spent'>): AutoLabel {
    this.store.settings.set(SETTING, JSON.stringify(next));
    if (next.enabled) void this.drain();
    return this.get();
  }

  /** New files are queued; they are sent when no other run is going. */
  offer(mediaIds: readonly number[]): void {
    if (!this.get().enabled) return;
    for (const id of mediaIds) this.pending.add(id);
    void this.drain();
  }

  /** A run ended: count what auto-labelling spent, and send what arrived meanwhile. */
  onRunFinished(state: RunState): void {
    if (this.ownRuns.delete(state.runKey)) this.spent += state.framesSpent;
    void this.drain();
  }

  private async drain(): Promise<void> {
    const settings = this.get();
    if (!settings.enabled || this.pending.size === 0 || this.runs.isBusy()) return;
    const left = settings.budget === null ? null : settings.budget - this.spent;
    if (left !== null && left <= 0) return;
    const mediaIds = [...this.pending];
    this.pending = new Set();
    try {
      const state = await this.runs.start({
        solution: settings.solution,
        mediaIds,
        budget: left,
        hourBudget: null,
        retryUncertain: false,
      });
      this.ownRuns.add(state.runKey);
    } catch (err) {
      for (const id of mediaIds) this.pending.add(id);
      this.log(`auto-label could not start: ${(err as Error).message}`);
    }
  }
}
