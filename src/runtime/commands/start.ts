import { loadConfig } from '../../config';
import { parseFlags } from '../args';
import { serviceLogger, type Command } from '../command';
import { runStack } from '../stack';

export const startCommand: Command = {
  usage: 'start [--sandbox]',
  summary: 'Everything in one process: Postgres (embedded unless DATABASE_URL), Temporal (dev server unless TEMPORAL_ADDRESS), '
    + 'migrations, schedule sync, the worker and the API. Data persists in DATA_DIR. `npm start` runs this. '
    + '--sandbox also runs the commerce platform simulator on loopback (a demo app and shop; a token key in DATA_DIR if unset).',
  async run(args, io) {
    const flags = parseFlags('start', args, { sandbox: { type: 'boolean', default: false } });
    const config = loadConfig(io.env);
    const logger = serviceLogger(config);
    return runStack(config, logger, io.out, { sandbox: flags.sandbox });
  },
};
