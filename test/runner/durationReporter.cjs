// Mocha's spec reporter, which also writes each file's wall time (hooks included) to DURATIONS_OUT as JSON, for
// test/runner/run.cjs to balance its shards with.
const fs = require('node:fs');
const Mocha = require('mocha');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } = Mocha.Runner.constants;

class DurationReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const durations = {};
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!started.has(suite)) return;
      durations[suite.file] = (durations[suite.file] ?? 0) + Date.now() - started.get(suite);
    });
    runner.once(EVENT_RUN_END, () => {
      if (process.env.DURATIONS_OUT) fs.writeFileSync(process.env.DURATIONS_OUT, JSON.stringify(durations));
    });
  }
}

module.exports = DurationReporter;
