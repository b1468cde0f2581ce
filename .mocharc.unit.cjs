// The unit tier (`npm run test:unit`): every test file that neither starts nor imports the integration harness
// (test/tiers.cjs finds them). No Postgres, no Temporal: it runs in seconds.
const { tiers } = require('./test/tiers.cjs');

module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  file: ['test/helpers/rootHooks.ts'],
  spec: tiers().unit,
  timeout: 60000,
  exit: true,
  reporter: 'dot',
};
