// Root hooks: one harness for the whole run, started only when a loaded test file imported it (test/tiers.cjs), so a
// run of unit tests starts neither Postgres nor Temporal. Starting them per file would dominate the suite.
const HARNESS = require.resolve('./harness');
const harnessLoaded = () => Boolean(require.cache[HARNESS]);
// A static import would load the harness for every run; tsx's CommonJS hook compiles require(), not import().
// eslint-disable-next-line @typescript-eslint/no-require-imports
const harnessModule = () => require(HARNESS) as typeof import('./harness');

before(async function () {
  if (!harnessLoaded()) return;
  this.timeout(10 * 60_000); // a first run may build the Temporal CLI
  await harnessModule().startHarness();
});

after(async function () {
  if (!harnessLoaded()) return;
  this.timeout(60_000);
  await harnessModule().stopHarness();
});
