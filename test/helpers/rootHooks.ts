import { startHarness, stopHarness } from './harness';

// Root hooks: one harness for the whole run (starting Temporal and Postgres per file would dominate the suite).
before(async function () {
  this.timeout(10 * 60_000); // a first run may build the Temporal CLI
  await startHarness();
});

after(async function () {
  this.timeout(60_000);
  await stopHarness();
});
