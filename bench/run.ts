/**
 * `npm run bench [-- section…]`: each section prints its figures with a ratio against a bare baseline
 * measured in the same run. Benchmarks never fail on a slow machine; they report.
 */
import { benchApp } from './app-bench.js';
import { benchAppImport } from './app-import-bench.js';
import { benchBridge } from './bridge-bench.js';
import { benchEvaluation } from './evaluation-bench.js';
import { benchExport } from './export-bench.js';
import { benchExportCorrected } from './export-corrected-bench.js';
import { benchImport } from './import-bench.js';
import { benchInterpolatedExport } from './interpolated-export/interpolated-export-bench.js';
import { benchLabel } from './label-bench.js';
import { benchLibrary } from './library-bench.js';
import { benchMisbehaving } from './misbehaving-bench.js';
import { benchModelThroughput } from './model-throughput.js';
import { benchOwnModel } from './own-model-bench.js';
import { benchPlan } from './plan-bench.js';
import { benchPriority } from './priority-bench.js';
import { benchReview } from './review-bench.js';
import { benchReviewEdit } from './review-edit-bench.js';
import { benchServiceOverhead } from './service-overhead.js';
import { benchStore } from './store-bench.js';
import { benchStorageBudget } from './storage-budget-bench.js';
import { benchTeam } from './team-bench.js';
import { benchTeamClaims } from './team-claims-bench.js';
import { benchTeamFailover } from './team-failover-bench.js';
import { benchRealClip, benchSpeed, benchTracking } from './tracking/tracking-bench.js';
import { benchTeamQuality } from './team-quality-bench.js';
import { benchVideo } from './video-throughput.js';
import { benchVideoOverlay } from './video-overlay-bench.js';
import { benchVideoReview } from './video-review/video-review-bench.js';
import { benchWatch } from './watch-bench.js';

const SECTIONS: Record<string, () => Promise<void>> = {
  service: benchServiceOverhead,
  models: benchModelThroughput,
  'own-model': benchOwnModel,
  video: benchVideo,
  store: benchStore,
  storage: benchStorageBudget,
  library: benchLibrary,
  priority: benchPriority,
  export: benchExport,
  'export-corrected': benchExportCorrected,
  'interpolated-export': benchInterpolatedExport,
  import: benchImport,
  label: benchLabel,
  misbehaving: benchMisbehaving,
  plan: benchPlan,
  bridge: benchBridge,
  // The import's wait for the UI's calls is the app's figure too (issue 24), run with it.
  app: async () => {
    await benchApp();
    await benchAppImport();
  },
  'app-import': benchAppImport,
  watch: benchWatch,
  'video-overlay': benchVideoOverlay,
  review: benchReview,
  // Also the first part of `review`: run by its name alone, never twice in a whole run.
  'review-edit': benchReviewEdit,
  evaluation: benchEvaluation,
  tracking: benchTracking,
  // Also the end of `tracking`: vtest.avi's tracks and the 50k-box time alone, without the scenes.
  'tracking-vtest': async () => {
    await benchRealClip();
    await benchSpeed();
  },
  'video-review': benchVideoReview,
  team: benchTeam,
  'team-failover': benchTeamFailover,
  'team-claims': benchTeamClaims,
  'team-quality': benchTeamQuality,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !(w in SECTIONS));
if (unknown.length) {
  process.stderr.write(
    `unknown section(s): ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}\n`,
  );
  process.exit(2);
}
process.stdout.write(
  `# LabelDesk benchmarks (${new Date().toISOString()}, node ${process.version})\n`,
);
for (const [name, run] of Object.entries(SECTIONS)) {
  const partOfAnother = name === 'review-edit' || name === 'tracking-vtest';
  if (wanted.length ? !wanted.includes(name) : partOfAnother) continue;
  await run();
}
