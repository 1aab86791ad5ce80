/** The benches draw their data from the tests' seeded generator (mulberry32). */
export { mulberry32 as seededRandom } from '../test/support/seeded-random.js';
