/**
 * Vitest setup file: under `npm run coverage`, every process a test starts inherits
 * NODE_V8_COVERAGE and leaves its raw coverage in the folder. Set here, not on Vitest's own
 * workers, whose transformed sources only Vitest's provider can map.
 */
import { childCoverageDir } from './child-coverage.js';

if (childCoverageDir) process.env.NODE_V8_COVERAGE = childCoverageDir;
