import { loadConfig } from '../../config';
import { parseFlags } from '../args';
import { serviceLogger, type Command } from '../command';
import { runStack } from '../stack';
import { refuseSecurityWithoutAddress, temporalSettingsOf } from '../temporal';

export const startCommand: Command = {
  usage: 'start [--sandbox]',
  summary:
    'Everything in one process: Postgres (embedded unless DATABASE_URL), Temporal (dev server unless TEMPORAL_ADDRESS), ' +
    'migrations, schedule sync, the worker and the API. Data persists in DATA_DIR. `npm start` runs this. ' +
    '--sandbox also runs simulators on loopback: the commerce platform (a demo app and shop) and the site platform (a demo ' +
    'OAuth client and site), the research providers, DNS and SMTP; token keys are generated into DATA_DIR if unset.',
  async run(args, io) {
    const flags = parseFlags('start', args, { sandbox: { type: 'boolean', default: false } });
    const config = loadConfig(io.env);
    const temporal = temporalSettingsOf(io.env);
    if (!temporal.address) refuseSecurityWithoutAddress(temporal, 'a dev server');
    const logger = serviceLogger(config);
    return runStack(config, logger, io.out, { sandbox: flags.sandbox, temporal });
  },
};
