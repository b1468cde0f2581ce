import { loadConfig } from '../../config';
import { parseFlags } from '../args';
import { serviceLogger, type Command } from '../command';
import { runStack } from '../stack';

export const startCommand: Command = {
  usage: 'start [--sandbox]',
  summary: 'Everything in one process: Postgres (embedded unless DATABASE_URL), Temporal (dev server unless TEMPORAL_ADDRESS), '
    + 'migrations, schedule sync, the worker and the API. Data persists in DATA_DIR. `npm start` runs this. '
    + '--sandbox is accepted and changes nothing yet (no platform integration to simulate so far).',
  async run(args, io) {
    const flags = parseFlags('start', args, { sandbox: { type: 'boolean', default: false } });
    const config = loadConfig(io.env);
    const logger = serviceLogger(config);
    if (flags.sandbox) logger.warn('--sandbox: no platform integration exists yet, so there is nothing to simulate; starting normally');
    return runStack(config, logger, io.out);
  },
};
