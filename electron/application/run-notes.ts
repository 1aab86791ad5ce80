/**
 * What an app run says once, on the Runs screen beside its status (issue 23 §3), as `labeldesk
 * label` prints it: that boxes are read with an assumed origin nobody confirmed, and that answers
 * held meanwhile were read again once the origin was decided. Kept with the run after it ends,
 * and across a pause.
 */
import type { SettingsPort } from '../core/store/store-ports.js';
import { ORIGIN_ASSUMED_IN_APP, originUndecided } from './box-origin-watch.js';

export class RunNotes {
  constructor(
    private readonly store: SettingsPort,
    private readonly publish: (notes: readonly string[]) => void,
    /** What the run said before a pause. */
    private lines: readonly string[] = [],
  ) {}

  /** Says a line once per run. */
  readonly add = (line: string): void => {
    if (this.lines.includes(line)) return;
    this.lines = [...this.lines, line];
    this.publish(this.lines);
  };

  /**
   * At the start: the origin is already known to be undecided. (An answer that leaves it so
   * during the run is said by the service hub, where the answer is read.)
   */
  checkOrigin(serviceUrl: string): void {
    if (originUndecided(this.store, serviceUrl)) this.add(ORIGIN_ASSUMED_IN_APP);
  }
}
